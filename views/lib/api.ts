// The API client: JSON under /backend/api/v1 with the session cookie. Errors carry the
// server's {"msg"} so screens can show it.
export const API_BASE = '/backend/api/v1';

export class ApiError extends Error {
  status: number;
  data: unknown;
  /** The server's own {"msg"} (or {"error"}); '' when it sent none (a proxy's 502, an
   * empty 500), so screens show their spec fallback rather than the HTTP status text. */
  serverMsg: string;
  /** The field the message is about ({"field"}), when the server names one. */
  field: string;
  constructor(status: number, msg: string, data: unknown, serverMsg = msg, field = '') {
    super(msg);
    this.status = status;
    this.data = data;
    this.serverMsg = serverMsg;
    this.field = field;
  }
}

type Opts = { method?: string; body?: unknown; form?: FormData; timeoutMs?: number; signal?: AbortSignal };

export async function api<T = unknown>(path: string, opts: Opts = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const ctrl = new AbortController();
  const timer = opts.timeoutMs ? setTimeout(() => ctrl.abort(), opts.timeoutMs) : undefined;
  opts.signal?.addEventListener('abort', () => ctrl.abort());
  let res: Response;
  try {
    res = await fetch(API_BASE + path, {
      method: opts.method || (body ? 'POST' : 'GET'),
      headers,
      body,
      credentials: 'include',
      signal: ctrl.signal,
    });
  } catch (e) {
    throw new ApiError(0, ctrl.signal.aborted ? 'The request timed out.' : 'Network error. Check your connection.', e);
  } finally {
    if (timer) clearTimeout(timer);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const d = data && typeof data === 'object' ? (data as { msg?: unknown; error?: unknown; field?: unknown }) : null;
    const own = d && typeof d.msg === 'string' && d.msg ? d.msg : d && typeof d.error === 'string' && d.error ? d.error : '';
    const field = d && typeof d.field === 'string' ? d.field : '';
    throw new ApiError(res.status, own || res.statusText || 'Request failed', data, own, field);
  }
  return data as T;
}

/** The server's message from an error, or the fallback (spec section 8: 'server msg if
 * present else fallback'; the HTTP status text is never shown). */
export function errorMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError && e.status === 0) return e.message;
  if (e instanceof ApiError && e.serverMsg) return e.serverMsg;
  return fallback;
}
