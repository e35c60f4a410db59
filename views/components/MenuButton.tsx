import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn';

/**
 * A menu button (WAI-ARIA APG "menu button" pattern) in a few hundred bytes, for the header's
 * theme and user menus. It replaced Radix's dropdown menu, whose closure (menu, collection,
 * popper, floating-ui, remove-scroll: ~25 KiB gz) was most of the Header island, the one island
 * every page loads.
 *
 * Enter, Space and ArrowDown on the button open it on the first item, ArrowUp on the last;
 * ArrowDown/ArrowUp move (wrapping), Home/End jump, a letter moves to the next item starting
 * with it, Escape closes and gives the focus back to the button, Tab closes and moves on, a
 * click outside closes. Items are `[role^=menuitem]` descendants of the list; choosing one
 * (click, Enter, Space) closes the menu.
 */
export function MenuButton({
  button,
  buttonClassName,
  buttonProps,
  listClassName,
  children,
}: {
  button: ReactNode;
  buttonClassName: string;
  buttonProps?: Record<string, string>;
  listClassName: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const id = useId();
  const btn = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const items = () => Array.from(list.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    const all = items();
    (open === 'last' ? all[all.length - 1] : all[0])?.focus();
    const away = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!list.current?.contains(t) && !btn.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) btn.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(e.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onListKey = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => all[(i + all.length) % all.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at < 0 ? -1 : at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(-1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        setOpen(false);
        return;
      case ' ':
      case 'Enter':
        if (at >= 0) all[at].click();
        break;
      default:
        if (e.key.length === 1 && /\S/.test(e.key)) {
          const k = e.key.toLowerCase();
          for (let n = 1; n <= all.length; n++) {
            const el = all[(at + n) % all.length];
            if (el.textContent?.trim().toLowerCase().startsWith(k)) {
              el.focus();
              break;
            }
          }
          break;
        }
        return;
    }
    e.preventDefault();
  };

  return (
    <div className="relative">
      <button
        ref={btn}
        type="button"
        className={buttonClassName}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={onButtonKey}
        {...buttonProps}
      >
        {button}
      </button>
      {open && (
        <div
          ref={list}
          id={id}
          role="menu"
          className={cn('absolute right-0 top-full mt-2', listClassName)}
          onKeyDown={onListKey}
          // a chosen item closes the menu; a link goes on to navigate
          onClick={(e) => (e.target as HTMLElement).closest('[role^="menuitem"]') && close(true)}
          onPointerMove={(e) => (e.target as HTMLElement).closest<HTMLElement>('[role^="menuitem"]')?.focus()}
        >
          {children}
        </div>
      )}
    </div>
  );
}
