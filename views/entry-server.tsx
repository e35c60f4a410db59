import { renderToString } from 'react-dom/server';
import pages from 'virtual:pages';
import { collected } from './components/Island';
import { Layout } from './components/Layout';
import { ShellProvider, type Shell } from './lib/shell';

// The islands of the last render, as JSON (see __mmIslands below).
let islands = '[]';

// SHELL_PAGE renders the layout around no page. Go cuts a signed-in viewer's header out of
// it to put into a page rendered for a visitor (web.Site.ForViewer, for the pages that show
// a member what they show a visitor). The header is rendered inside the same layout, not
// alone, because its ids (useId) depend on where it stands in the tree (the footer, after
// it, is left out).
const SHELL_PAGE = '__shell';

function NoPage() {
  return null;
}

// Called from Go (ssr/pool.go) with the page name and its props as one JSON string.
// Answers the HTML; __mmIslands() then answers that render's islands as JSON.
//
// Why two calls and not one string: V8 11.1 (rogchap.com/v8go v0.9.0) makes every string
// that JSON.parse internalizes (each new key, and each value of up to 10 characters) a
// two-byte string, even when the JSON is one byte a character. One two-byte piece
// anywhere in a concatenation makes V8 flatten the whole result two bytes a character,
// and make v8go encode it to UTF-8 from that: about 2 % of a /badges render (docs/performance.md,
// "Pages stay one byte a character"). The islands' JSON carries such keys; the HTML must
// not touch it. Node's V8 (11.3) keeps these strings one byte, so
// `bench/node-server.mjs` gains nothing from this.
function render(name: string, json: string): string {
  const Page = name === SHELL_PAGE ? NoPage : pages[name];
  if (!Page) throw new Error('unknown page ' + name);
  const { shell, page } = oneByteValues(JSON.parse(json)) as { shell: Shell; page: Record<string, unknown> };
  collected.length = 0;
  try {
    const html = renderToString(
      <ShellProvider value={shell}>
        <Layout shell={shell} bare={(Page as { bare?: boolean }).bare} noFooter={Page === NoPage}>
          <Page {...page} />
        </Layout>
      </ShellProvider>,
    );
    islands = JSON.stringify(collected);
    return html;
  } finally {
    collected.length = 0;
  }
}

// oneByteValues replaces every string value of up to 10 characters (the ones JSON.parse
// internalized, above) with a copy V8 builds one byte a character when it can: a string
// made from one-character strings of codes up to 0xFF is. Longer values are left as they
// are (JSON.parse makes them one byte already), and so are keys (they reach no HTML).
function oneByteValues(v: unknown): unknown {
  if (typeof v === 'string') return v.length <= 10 ? copy(v) : v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = oneByteValues(v[i]);
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k in o) o[k] = oneByteValues(o[k]);
  }
  return v;
}

function copy(s: string): string {
  let r = '';
  for (let i = 0; i < s.length; i++) r += String.fromCharCode(s.charCodeAt(i));
  return r;
}

const g = globalThis as unknown as { __mmRender: typeof render; __mmIslands: () => string };
g.__mmRender = render;
g.__mmIslands = () => islands;
