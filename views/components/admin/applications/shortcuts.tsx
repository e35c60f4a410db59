// Keyboard shortcuts of the review queue: j or n moves to the next application, k to the
// previous one, a asks to approve it, r opens its reject dialog, ? lists them. They never
// fire while typing (an input, a text area, a select, an editable element), with a
// modifier held, or while a dialog is open.
import { useEffect, useRef } from 'react';

function typing(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || !!t.closest('input, textarea, select, [contenteditable="true"], [role="textbox"]');
}

/** The application rows of the list on screen (each has data-application-id). */
function rows(panel: HTMLElement | null): HTMLElement[] {
  // the table's rows on a wide screen, the cards on a phone (or when chosen): the shown ones
  return panel ? Array.from(panel.querySelectorAll<HTMLElement>('[data-application-id]')).filter((r) => r.getClientRects().length > 0) : [];
}

export function useReviewShortcuts({ active, panelId, onApprove, onReject, onHelp }: {
  active: boolean;
  panelId: string;
  onApprove: (id: string) => void;
  onReject: (id: string) => void;
  onHelp: () => void;
}) {
  const current = useRef(-1);
  const handlers = useRef({ onApprove, onReject, onHelp });
  useEffect(() => {
    handlers.current = { onApprove, onReject, onHelp };
  });
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const panel = document.getElementById(panelId);
      if (!panel || panel.closest('[hidden], [data-state="inactive"]')) return;
      const list = rows(panel);
      // the current row: the one holding the focus, else the last one moved to
      const focusedRow = list.findIndex((r) => r.contains(document.activeElement));
      if (focusedRow >= 0) current.current = focusedRow;
      const at = Math.min(current.current, list.length - 1);
      const key = e.key;
      if (key === '?') {
        e.preventDefault();
        handlers.current.onHelp();
      } else if (key === 'j' || key === 'n' || key === 'k') {
        if (!list.length) return;
        e.preventDefault();
        const next = key === 'k' ? Math.max(at - 1, 0) : Math.min(at + 1, list.length - 1);
        current.current = next;
        const row = list[next];
        row.scrollIntoView({ block: 'nearest' });
        // the row's first control (View Details) takes the focus: its ring shows where we are
        (row.querySelector<HTMLElement>('button, a[href]') || row).focus();
      } else if ((key === 'a' || key === 'r') && at >= 0 && list[at]) {
        e.preventDefault();
        const id = list[at].dataset.applicationId || '';
        if (key === 'a') handlers.current.onApprove(id);
        else handlers.current.onReject(id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, panelId]);
}
