// Links to addresses people typed (LinkedIn, portfolio, …) go through externalHref: the
// server keeps only http(s) addresses, and this is the second line — a value that is not
// an absolute http(s) URL is never put in an href (React itself only blocks javascript:,
// not vbscript:, data: or a scheme hidden behind whitespace and control characters).
// No URL class: the server bundle runs in bare V8.

const HTTP = /^https?:\/\/[^\s/?#"'<>\\]+([/?#][^\s"<>\\]*)?$/i;

/** The address when it is an absolute http(s) URL, else undefined (render no link). */
export function externalHref(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const s = raw.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (s.length > 2000 || /[\u0000-\u001f\u007f]/.test(s)) return undefined;
  return HTTP.test(s) ? s : undefined;
}

/** A path on this site ("/badges/x"), never "//host" or "/\host"; else undefined. */
export function localHref(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  return /^\/(?![/\\])[^\s\\]*$/.test(raw) ? raw : undefined;
}
