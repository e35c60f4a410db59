// The help dialog listing the review queue's keyboard shortcuts (shortcuts.tsx); its code is
// fetched apart from the dashboard's (ApplicationsTab, deferred).
import { Button } from '../../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../dialog';

// what the keys do (the handler is useReviewShortcuts, shortcuts.tsx): kept here so that
// the queue's own code does not carry the list, and shortcuts.tsx no chunk of its own
const SHORTCUTS: [string[], string][] = [
  [['j', 'n'], 'Next application'],
  [['k'], 'Previous application'],
  [['a'], 'Approve the current application (asks first)'],
  [['r'], 'Reject the current application (opens the reject dialog)'],
  [['?'], 'Show these shortcuts'],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open && (
        <DialogContent data-testid="shortcuts-dialog">
          <DialogHeader>
            <DialogTitle>Keyboard shortcuts</DialogTitle>
            <DialogDescription>In the applications list, when you are not typing in a field.</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
            {SHORTCUTS.map(([keys, what]) => (
              <div key={what} className="contents">
                <dt className="flex gap-1">
                  {keys.map((k, i) => (
                    <span key={k} className="flex items-center gap-1">
                      {i > 0 && <span className="text-muted-foreground">or</span>}
                      <kbd className="min-w-6 rounded border bg-muted px-1.5 py-0.5 text-center font-mono text-xs">{k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <DialogFooter>
            <Button onClick={onClose}>Close</Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
