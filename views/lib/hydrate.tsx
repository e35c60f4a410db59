import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydrationWait } from './hydration-wait';
import { ensureToaster } from './toast';

// Marks the island element once React has hydrated it and the deferred parts it rendered
// (views/lib/deferred.tsx) are hydrated too (tests wait for data-hydrated).
function tracker(el: HTMLElement) {
  let committed = false;
  let pending = 0;
  const mark = () => {
    if (committed && pending === 0) el.setAttribute('data-hydrated', 'true');
  };
  return {
    commit() {
      committed = true;
      mark();
    },
    wait() {
      pending++;
      let counted = true;
      return () => {
        if (!counted) return;
        counted = false;
        pending--;
        mark();
      };
    },
  };
}

function Hydrated({ el, children }: { el: HTMLElement; children: ReactNode }) {
  const [t] = useState(() => tracker(el));
  useEffect(() => t.commit(), [t]);
  return <HydrationWait.Provider value={t.wait}>{children}</HydrationWait.Provider>;
}

export function hydrateIsland(el: HTMLElement, C: ComponentType<Record<string, unknown>>, props: Record<string, unknown>, name: string) {
  if (el.dataset.hydrate !== 'interaction') ensureToaster();
  hydrateRoot(
    el,
    <Hydrated el={el}>
      <C {...props} />
    </Hydrated>,
    { onRecoverableError: (e, info) => console.warn('hydration:', name, String(e), String((e as Error)?.cause ?? ''), info.componentStack ?? '') },
  );
}
