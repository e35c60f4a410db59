import { useMemo, useSyncExternalStore } from 'react';
import { getSessionUser, subscribeSessionUser } from '../session-store';
import type { ShellUser } from '../shell';

/** The server-rendered user with whatever this page has published since (a new name or
 * picture from the profile island); null stays null (signed out). The server snapshot is
 * null, so hydration matches the server's HTML and the update follows right after. */
export function useSessionUser(initial: ShellUser | null): ShellUser | null {
  const published = useSyncExternalStore(subscribeSessionUser, getSessionUser, () => null);
  return useMemo(() => (initial && published ? { ...initial, ...published } : initial), [initial, published]);
}
