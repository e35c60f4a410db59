// Dialog on Radix (focus trap, Escape, aria) in the shadcn/ui style.
import { useState, type ComponentPropsWithoutRef, type HTMLAttributes, type ReactNode } from 'react';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '../lib/cn';

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

/**
 * The dialog's content. Radix returns focus on close only to a Dialog.Trigger; most of
 * our dialogs are opened by state, so the control focused when the dialog opened (read
 * at its first render, before focus moves in) gets the focus back when it closes.
 */
export function DialogContent({ className, children, onCloseAutoFocus, ...rest }: ComponentPropsWithoutRef<typeof D.Content> & { children: ReactNode }) {
  const [opener] = useState<HTMLElement | null>(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  const returnFocus = (e: Event) => {
    onCloseAutoFocus?.(e);
    if (e.defaultPrevented) return;
    if (opener && opener !== document.body && opener.isConnected) {
      e.preventDefault();
      // a control disabled while the dialog worked is enabled again a moment later
      opener.focus();
      if (document.activeElement !== opener) setTimeout(() => opener.isConnected && opener.focus(), 50);
    }
  };
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[1px]" />
      <D.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-background p-6 shadow-xl',
          className,
        )}
        onCloseAutoFocus={returnFocus}
        {...rest}
      >
        {children}
        <D.Close className="absolute right-4 top-4 rounded-sm opacity-70 transition-opacity hover:opacity-100" aria-label="Close">
          <X className="h-4 w-4" />
        </D.Close>
      </D.Content>
    </D.Portal>
  );
}

export function DialogHeader({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col gap-1.5 text-left', className)} {...rest} />;
}
export function DialogFooter({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...rest} />;
}
export function DialogTitle({ className, ...rest }: ComponentPropsWithoutRef<typeof D.Title>) {
  return <D.Title className={cn('text-lg font-semibold leading-none tracking-tight', className)} {...rest} />;
}
export function DialogDescription({ className, ...rest }: ComponentPropsWithoutRef<typeof D.Description>) {
  return <D.Description className={cn('text-sm text-muted-foreground', className)} {...rest} />;
}
