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
  // a press on a toast, remembered by its target: a toast's close button is gone (removed by
  // its own click) by the time a dialog hears of the press, so the target's place in the
  // page no longer tells that it was on a toast
  document.addEventListener(
    'pointerdown',
    (e) => {
      const t = e.target;
      pressedToast = t instanceof Element && !!t.closest('[data-toaster]') ? t : null;
    },
    true,
  );
}

let pressedToast: Element | null = null;

/** Whether target is on a toast, or was when it was pressed. */
export function onToast(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return !!target.closest('[data-toaster]') || target === pressedToast;
}

export function lastFocusedOutside(): HTMLElement | null {
  return lastOutside;
}
