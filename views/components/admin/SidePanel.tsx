// A table row's details in a side panel (issue 37): a modal sheet from the right with a title
// and a one-line description; Escape or the close button shuts it and the focus returns to
// the row that opened it. The body is a render prop because the row is null while it is shut.
import type { ReactNode } from 'react';
import { Dialog, DialogDescription, DialogHeader, DialogTitle, SheetContent } from '../dialog';

export function SidePanel<T>({
  item,
  onClose,
  id,
  title,
  description,
  children,
}: {
  /** the row shown; null or undefined shuts the panel */
  item: T | null | undefined;
  onClose: () => void;
  /** a prefix for the description's element id (unique on the page) */
  id: string;
  title: ReactNode;
  description: (item: T) => ReactNode;
  children: (item: T) => ReactNode;
}) {
  const open = item !== null && item !== undefined;
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open && (
        <SheetContent aria-describedby={`${id}-panel-desc`}>
          <DialogHeader className="pr-8">
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription id={`${id}-panel-desc`}>{description(item)}</DialogDescription>
          </DialogHeader>
          {children(item)}
        </SheetContent>
      )}
    </Dialog>
  );
}
