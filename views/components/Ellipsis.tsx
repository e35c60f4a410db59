// "…" written as the entity &hellip;, so that the server's HTML stays within Latin-1. One
// character above U+00FF anywhere in a page makes V8 build the whole rendered page as a
// two-byte string, which costs every render a wider flatten and a slower UTF-8 encode
// (docs/performance.md, "Pages stay one byte a character"): the catalogue cut 3 of its 24 cards'
// criteria with a literal "…", and the verify pages wrote one in their hints. The markup
// is a constant, never data.
const HELLIP = { __html: '&hellip;' };

export default function Ellipsis() {
  return <span dangerouslySetInnerHTML={HELLIP} />;
}
