import { useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ensureToaster } from './toast';

// Marks the island element once React has hydrated it (tests wait for data-hydrated).
function Hydrated({ el, children }: { el: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    el.setAttribute('data-hydrated', 'true');
  }, [el]);
  return children;
}

export function hydrateIsland(el: HTMLElement, C: ComponentType<Record<string, unknown>>, props: Record<string, unknown>, name: string) {
  if (el.dataset.hydrate !== 'interaction') ensureToaster();
  hydrateRoot(
    el,
    <Hydrated el={el}>
      <C {...props} />
    </Hydrated>,
    { onRecoverableError: (e) => console.warn('hydration:', name, e) },
  );
}
