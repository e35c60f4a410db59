// A confirmation of the review queue (restore a revoked grant, the one-click reject, the
// keyboard's approve): a dialog naming the consequence. Its own module so that the queue's
// first screen does not carry the dialog's code (ApplicationsTab defers it).
import { type ReactNode } from 'react';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button } from '../../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../dialog';

export function ConfirmDialog({ open, title, confirm, destructive, busy, testid, onClose, onConfirm, children }: {
  open: boolean;
  title: string;
  confirm: string;
  destructive?: boolean;
  busy: boolean;
  testid: string;
  onClose: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open && (
        <DialogContent data-testid={testid}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{children}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button variant={destructive ? 'destructive' : 'default'} disabled={busy} onClick={onConfirm}>
              {busy && <Loader2 className="animate-spin" />} {confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
