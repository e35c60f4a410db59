/** The last control focused outside any dialog: the opener of a dialog whose content
 * takes the focus itself as it opens (an autoFocus field), when Radix reports no open
 * auto-focus to remember it by. Tracked from the island's first load, before any dialog's
 * code is (components/dialog.tsx loads it when a dialog first opens). */
let lastOutside: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (e) => {
      const t = e.target;
      if (t instanceof HTMLElement && t !== document.body && !t.closest('[role="dialog"],[role="alertdialog"],[role="menu"]')) lastOutside = t;
    },
    true,
  );
}

export function lastFocusedOutside(): HTMLElement | null {
  return lastOutside;
}
