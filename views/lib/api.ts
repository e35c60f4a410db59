// The API client: JSON under /backend/api/v1 with the session cookie. Errors carry the
// server's {"msg"} so screens can show it.
export const API_BASE = '/backend/api/v1';

export class ApiError extends Error {
  status: number;
  data: unknown;
  constructor(status: number, msg: string, data: unknown) {
    super(msg);
    this.status = status;
    this.data = data;
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
    const d = data as { msg?: string; error?: string } | null;
    throw new ApiError(res.status, (d && (d.msg || d.error)) || res.statusText || 'Request failed', data);
  }
  return data as T;
}

/** The server's message from an error, or the fallback. */
export function errorMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError && e.message && e.status !== 0) return e.message;
  if (e instanceof ApiError && e.status === 0) return e.message;
  return fallback;
}
