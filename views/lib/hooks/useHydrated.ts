import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False on the server and during hydration, true once the island runs in the browser: a
 * control that needs script (a dialog's button) renders as its plain-HTML fallback (a link
 * to a page) until then, without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
