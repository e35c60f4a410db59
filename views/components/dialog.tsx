// Dialog in the shadcn/ui style, on Radix (focus trap, Escape, aria). Radix's dialog code
// (with its scroll lock and focus scope, ~10 KiB gzipped) is not in the island's script: it
// loads, from ./dialog-radix.tsx, when a dialog first opens, and the dialog then stays
// mounted so it closes as Radix closes it. Every dialog here is controlled (open).
import { lazy, Suspense, useState, type ComponentProps, type HTMLAttributes } from 'react';
import { cn } from '../lib/cn';
import '../lib/focus-outside';

const radix = () => import('./dialog-radix');
const Root = lazy(() => radix().then((m) => ({ default: m.Dialog })));
export const DialogContent = lazy(() => radix().then((m) => ({ default: m.DialogContent })));
export const SheetContent = lazy(() => radix().then((m) => ({ default: m.SheetContent })));
export const DialogTitle = lazy(() => radix().then((m) => ({ default: m.DialogTitle })));
export const DialogDescription = lazy(() => radix().then((m) => ({ default: m.DialogDescription })));

export function Dialog({ open, ...rest }: ComponentProps<typeof Root> & { open: boolean }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Root open={open} {...rest} />
    </Suspense>
  );
}

export function DialogHeader({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col gap-1.5 text-left', className)} {...rest} />;
}
export function DialogFooter({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...rest} />;
}
