// The signed-in user as edited on this page: the profile island publishes a new name or
// picture here, and the header (which may hydrate later, or be woken by it) follows.
// No React here: the client entry subscribes too, to wake a header that waits for a touch.
import type { ShellUser } from './shell';

let current: ShellUser | null = null;
const listeners = new Set<() => void>();

/** The user as last published on this page, or null while nothing has changed. */
export function getSessionUser(): ShellUser | null {
  return current;
}

/** Publishes the signed-in user's new details to every island of the page. */
export function publishSessionUser(u: ShellUser) {
  current = u;
  for (const l of [...listeners]) l();
}

/** Calls `l` after each publish; returns the unsubscribe function. */
export function subscribeSessionUser(l: () => void): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}
