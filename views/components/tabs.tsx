// Tabs in the shadcn/ui style, after the WAI-ARIA tabs pattern (automatic activation): a
// tablist whose triggers take one tab stop (the selected one), arrow keys, Home and End move
// and select, each panel is labelled by its trigger. Written here rather than on Radix: the
// admin dashboard is the only user, and Radix's tabs brought 10 KiB gz of roving focus,
// collection and presence code into its first load (docs/performance.md).
import { createContext, useContext, useId, useState, type ComponentPropsWithoutRef, type KeyboardEvent } from 'react';
import { cn } from '../lib/cn';

type TabsState = { value: string; select: (v: string) => void; base: string };
const Ctx = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const s = useContext(Ctx);
  if (!s) throw new Error('a tab part outside <Tabs>');
  return s;
}

// ids safe in a selector and an attribute
const slug = (v: string) => v.replace(/[^A-Za-z0-9_-]/g, '_');
const triggerId = (base: string, v: string) => `${base}-trigger-${slug(v)}`;
const contentId = (base: string, v: string) => `${base}-content-${slug(v)}`;

type TabsProps = Omit<ComponentPropsWithoutRef<'div'>, 'defaultValue' | 'onChange'> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (v: string) => void;
};

export function Tabs({ value, defaultValue = '', onValueChange, children, ...rest }: TabsProps) {
  const [own, setOwn] = useState(defaultValue);
  const base = 'tabs' + useId().replace(/[^A-Za-z0-9]/g, '');
  const current = value ?? own;
  const select = (v: string) => {
    if (v === current) return;
    if (value === undefined) setOwn(v);
    onValueChange?.(v);
  };
  return (
    <Ctx.Provider value={{ value: current, select, base }}>
      <div data-orientation="horizontal" {...rest}>
        {children}
      </div>
    </Ctx.Provider>
  );
}

export function TabsList({ className, onKeyDown, ...rest }: ComponentPropsWithoutRef<'div'>) {
  const { select } = useTabs();
  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tabs = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not([disabled])'));
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    next.focus();
    const v = next.dataset.value;
    if (v !== undefined) select(v);
  };
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={cn('inline-flex h-10 flex-wrap items-center justify-center gap-1 rounded-md bg-muted p-1 text-muted-foreground', className)}
      onKeyDown={move}
      {...rest}
    />
  );
}

type TriggerProps = ComponentPropsWithoutRef<'button'> & { value: string };

export function TabsTrigger({ value, className, id, onClick, ...rest }: TriggerProps) {
  const t = useTabs();
  const active = t.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={id ?? triggerId(t.base, value)}
      aria-selected={active}
      aria-controls={contentId(t.base, value)}
      data-state={active ? 'active' : 'inactive'}
      data-value={value}
      tabIndex={active ? 0 : -1}
      className={cn(
        'inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-sm px-3 py-1.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      onClick={(e) => {
        onClick?.(e);
        if (!e.defaultPrevented) t.select(value);
      }}
      {...rest}
    />
  );
}

type ContentProps = ComponentPropsWithoutRef<'div'> & { value: string; forceMount?: boolean };

/** A tab's panel: its content is rendered while it is selected (forceMount keeps it rendered,
 * hidden, so its state survives a visit to another tab). */
export function TabsContent({ value, forceMount, className, children, ...rest }: ContentProps) {
  const t = useTabs();
  const active = t.value === value;
  return (
    <div
      role="tabpanel"
      id={contentId(t.base, value)}
      aria-labelledby={triggerId(t.base, value)}
      data-state={active ? 'active' : 'inactive'}
      hidden={!active && !forceMount}
      tabIndex={0}
      className={cn('mt-4 focus-visible:outline-none', className)}
      {...rest}
    >
      {(active || forceMount) && children}
    </div>
  );
}
