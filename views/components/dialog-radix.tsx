// Dialog on Radix (focus trap, Escape, aria) in the shadcn/ui style. Islands import
// ./dialog.tsx, which loads this module (and Radix's dialog code) when a dialog first opens.
import { useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import * as D from 'radix-ui/dialog';
import X from 'lucide-react/icons/x';
import { cn } from '../lib/cn';
import { lastFocusedOutside, onToast } from '../lib/focus-outside';

export const Dialog = D.Root;

/**
 * Focus for a dialog opened by state. Radix returns focus on close only to a
 * Dialog.Trigger; most of our dialogs are opened by state, so the control focused when the
 * dialog opened (still the active element when Radix announces the open auto-focus) gets
 * the focus back when it closes. A click on a toast (its close button, a swipe) is not a
 * click outside the dialog: the dialog and what was typed in it stay (Radix may report the
 * press at its click, when the close button is already gone).
 */
function useDialogFocus({ onOpenAutoFocus, onCloseAutoFocus, onInteractOutside }: Pick<ComponentPropsWithoutRef<typeof D.Content>, 'onOpenAutoFocus' | 'onCloseAutoFocus' | 'onInteractOutside'>) {
  // a dialog whose content mounts as it opens: the focused control at its first render
  const [first] = useState<HTMLElement | null>(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  const opener = useRef<HTMLElement | null>(first && first !== document.body ? first : null);
  const remember = (e: Event) => {
    // a dialog kept mounted while closed: the focused control as Radix opens it
    const a = document.activeElement as HTMLElement | null;
    if (a && a !== document.body && !(e.currentTarget as Node | null)?.contains?.(a)) opener.current = a;
    onOpenAutoFocus?.(e);
  };
  const returnFocus = (e: Event) => {
    onCloseAutoFocus?.(e);
    const el = opener.current && opener.current.isConnected ? opener.current : lastFocusedOutside();
    if (e.defaultPrevented || !el || !el.isConnected) return;
    e.preventDefault();
    el.focus();
    // a control disabled while the dialog worked is enabled again a moment later
    if (document.activeElement !== el) setTimeout(() => el.isConnected && el.focus(), 50);
  };
  const outside = (e: Parameters<NonNullable<typeof onInteractOutside>>[0]) => {
    if (onToast(e.target)) {
      e.preventDefault();
      return;
    }
    onInteractOutside?.(e);
  };
  return { onOpenAutoFocus: remember, onCloseAutoFocus: returnFocus, onInteractOutside: outside };
}

/** The dialog's content, centred (see useDialogFocus for where the focus goes). */
export function DialogContent({ className, children, onOpenAutoFocus, onCloseAutoFocus, onInteractOutside, ...rest }: ComponentPropsWithoutRef<typeof D.Content> & { children: ReactNode }) {
  const focus = useDialogFocus({ onOpenAutoFocus, onCloseAutoFocus, onInteractOutside });
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[1px]" />
      <D.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-background p-6 shadow-xl',
          className,
        )}
        {...focus}
        {...rest}
      >
        {children}
        <CloseX />
      </D.Content>
    </D.Portal>
  );
}

/** A side panel: a modal sheet from the right on wide screens, the whole screen on phones
 * (a table row's details). It takes the focus itself as it opens, not its first control
 * (often an action: Approve, Resend), so a second Enter does nothing; Tab moves on to its
 * controls. Escape or Close shuts it and the focus returns to the row's control that
 * opened it. wide: 44rem rather than 36rem (an application's details). */
export function SheetContent({ children, wide = false, onOpenAutoFocus, onCloseAutoFocus, onInteractOutside, ...rest }: ComponentPropsWithoutRef<typeof D.Content> & { children: ReactNode; wide?: boolean }) {
  const focus = useDialogFocus({
    onOpenAutoFocus: (e) => {
      onOpenAutoFocus?.(e);
      if (e.defaultPrevented) return;
      e.preventDefault();
      (e.currentTarget as HTMLElement | null)?.focus();
    },
    onCloseAutoFocus,
    onInteractOutside,
  });
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-50 bg-black/40" />
      <D.Content
        className={cn('fixed inset-0 z-50 flex flex-col gap-4 overflow-y-auto bg-background p-4 shadow-xl outline-none sm:p-6 lg:left-auto lg:border-l', wide ? 'lg:w-[44rem]' : 'lg:w-[36rem]')}
        data-testid="side-panel"
        {...focus}
        {...rest}
      >
        {children}
        <CloseX />
      </D.Content>
    </D.Portal>
  );
}

export function DialogTitle({ className, ...rest }: ComponentPropsWithoutRef<typeof D.Title>) {
  return <D.Title className={cn('text-lg font-semibold leading-none tracking-tight', className)} {...rest} />;
}
export function DialogDescription({ className, ...rest }: ComponentPropsWithoutRef<typeof D.Description>) {
  return <D.Description className={cn('text-sm text-muted-foreground', className)} {...rest} />;
}

/** The ✕ in a dialog's or a side panel's corner. */
function CloseX() {
  return (
    <D.Close className="absolute right-4 top-4 rounded-sm opacity-70 transition-opacity hover:opacity-100" aria-label="Close">
      <X className="h-4 w-4" />
    </D.Close>
  );
}
