// A notice carried over one navigation: a page that sends the visitor elsewhere (the
// account deletion sends them home) leaves it here, and the next page's client entry
// shows it as a toast. sessionStorage only: nothing reaches the server.
const KEY = 'mm:notice';

export type Notice = { title: string; description?: string };

/** Leaves a notice for the next page this tab opens. */
export function setNotice(n: Notice) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(n));
  } catch {
    // storage off (private mode): the notice is lost, the navigation still happens
  }
}

/** Shows (once) the notice a previous page left, loading the toaster only then. */
export function showNotice() {
  let n: Notice | null = null;
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return;
    sessionStorage.removeItem(KEY);
    n = JSON.parse(raw) as Notice;
  } catch {
    return;
  }
  if (!n || typeof n.title !== 'string') return;
  const { title, description } = n;
  void import('./toast').then(({ toast }) => toast({ title, description: typeof description === 'string' ? description : undefined, duration: 10000 }));
}
