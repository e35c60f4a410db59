// A tiny toast store shared by every island (one module instance per page).
// Spec constants: at most 1 visible, a new one replaces the old, 5000 ms by default,
// dismissed toasts removed after 1,000,000 ms.
export const TOAST_LIMIT = 1;
export const TOAST_DURATION = 5000;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type Toast = {
  id: number;
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive' | 'success';
  duration?: number;
  /** A button on the toast (Undo): clicking it runs onClick and dismisses the toast. */
  action?: { label: string; onClick: () => void };
  open: boolean;
};

type Listener = (toasts: Toast[]) => void;

let toasts: Toast[] = [];
let seq = 0;
const listeners = new Set<Listener>();
const removeTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit() {
  for (const l of listeners) l(toasts);
}

export function subscribe(l: Listener): () => void {
  listeners.add(l);
  l(toasts);
  return () => {
    listeners.delete(l);
  };
}

export function dismiss(id?: number) {
  toasts = toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t));
  for (const t of toasts) {
    if (!t.open && !removeTimers.has(t.id)) {
      removeTimers.set(
        t.id,
        setTimeout(() => {
          removeTimers.delete(t.id);
          toasts = toasts.filter((x) => x.id !== t.id);
          emit();
        }, TOAST_REMOVE_DELAY),
      );
    }
  }
  emit();
}

/** Shows a toast; it replaces the one on screen. */
export function toast(t: Omit<Toast, 'id' | 'open'>): number {
  const id = ++seq;
  toasts = [{ ...t, id, open: true }, ...toasts.map((x) => ({ ...x, open: false }))].slice(0, TOAST_LIMIT);
  ensureToaster();
  emit();
  return id;
}

/** How long a toast offers to undo what it reports. */
export const UNDO_DURATION = 6000;

/** A success toast with an Undo button for UNDO_DURATION ms. */
export function toastUndo(title: string, description: string | undefined, undo: () => void) {
  return toast({ title, description, variant: 'success', duration: UNDO_DURATION, action: { label: 'Undo', onClick: undo } });
}

/** Shows the spec's destructive error toast: title 'Error' unless another is given. */
export function toastError(description: string, title = 'Error') {
  return toast({ title, description, variant: 'destructive' });
}

// The toaster is mounted on demand (first toast, or when an eager island hydrates), so that
// pages without interactive parts do not load React for it.
let mounted = false;
export function ensureToaster() {
  if (mounted || typeof document === 'undefined') return;
  mounted = true;
  Promise.all([import('react'), import('react-dom/client'), import('../components/Toaster')])
    .then(([{ createElement }, { createRoot }, { Toaster }]) => {
      // (views import react and react-dom through one ES module, esbuild.config.mjs
      // reactOneChunk, so their named exports are there as they are)
      const host = document.createElement('div');
      host.id = 'toaster';
      document.body.appendChild(host);
      createRoot(host).render(createElement(Toaster));
    })
    .catch((e) => console.error('toaster failed to load', e));
}
