import { useEffect, useRef, useState } from 'react';
import X from 'lucide-react/icons/x';
import { dismiss, subscribe, TOAST_DURATION, type Toast } from '../lib/toast';
import { cn } from '../lib/cn';

const SWIPE_THRESHOLD = 50;

function ToastItem({ t }: { t: Toast }) {
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const paused = useRef(false);

  useEffect(() => {
    if (!t.open) return;
    let left = t.duration ?? TOAST_DURATION;
    let last = Date.now();
    const iv = setInterval(() => {
      const now = Date.now();
      if (!paused.current) left -= now - last;
      last = now;
      if (left <= 0) dismiss(t.id);
    }, 100);
    return () => clearInterval(iv);
  }, [t.id, t.open, t.duration]);

  if (!t.open) return null;
  // a div, not an li: a list item may not take the status role (axe: list)
  return (
    <div
      role="status"
      aria-live="polite"
      data-variant={t.variant || 'default'}
      className={cn(
        'pointer-events-auto relative flex w-full touch-pan-y select-none items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg transition-[transform,opacity]',
        t.variant === 'destructive'
          ? 'border-destructive bg-destructive text-destructive-foreground'
          : t.variant === 'success'
            ? 'border-success/40 bg-card text-card-foreground'
            : 'bg-card text-card-foreground',
      )}
      style={{ transform: `translateX(${dx}px)`, opacity: dx > 0 ? Math.max(0.2, 1 - dx / 200) : 1 }}
      onMouseEnter={() => (paused.current = true)}
      onMouseLeave={() => (paused.current = false)}
      onPointerDown={(e) => {
        start.current = e.clientX;
        paused.current = true;
      }}
      onPointerMove={(e) => {
        if (start.current !== null) setDx(Math.max(0, e.clientX - start.current));
      }}
      onPointerUp={() => {
        if (dx > SWIPE_THRESHOLD) dismiss(t.id);
        start.current = null;
        paused.current = false;
        setDx(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setDx(0);
      }}
    >
      <div className="grid gap-1">
        {t.title && <div className="text-sm font-semibold">{t.title}</div>}
        {t.description && <div className="text-sm opacity-90">{t.description}</div>}
        {t.action && (
          <button
            type="button"
            className="mt-1 justify-self-start rounded-md border px-3 py-1 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="toast-action"
            onClick={() => {
              dismiss(t.id);
              t.action?.onClick();
            }}
          >
            {t.action.label}
          </button>
        )}
      </div>
      <button
        type="button"
        aria-label="Dismiss notification"
        className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100"
        onClick={() => dismiss(t.id)}
      >
        <X className="h-4 w-4" />
      </button>
    </div>
  );
}

/** The toast region: one visible toast, F8 focuses it, swipe right past 50 px dismisses. */
export function Toaster() {
  const [list, setList] = useState<Toast[]>([]);
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => subscribe(setList), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F8') {
        e.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section aria-label="Notifications (F8)">
      <div
        ref={region}
        tabIndex={-1}
        data-toaster=""
        className="pointer-events-none fixed bottom-0 right-0 z-[100] flex w-full flex-col gap-2 p-4 outline-none sm:max-w-sm"
      >
        {list.map((t) => (
          <ToastItem key={t.id} t={t} />
        ))}
      </div>
    </section>
  );
}
