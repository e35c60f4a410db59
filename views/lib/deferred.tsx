// deferred(load) is a part of an island that the server renders with the island but whose
// code the browser fetches apart, after the island's own chunk: a card below the first
// view, a rarely used path. Its code is not in the island's closure (the bytes counted
// against the 90 KiB budget, docs/performance.md) and is fetched in parallel with React.
//
// Server: the bundle is one script (esbuild turns import() into a resolved promise), so
// every deferred part is loaded before the first render (ssr/pool.go runs the microtasks
// after loading the bundle) and renders at once inside a Suspense boundary.
// Browser: the same boundary around a part that suspends until its code is here. Hydration leaves the server's HTML of the
// boundary as it is until the code arrives, then hydrates it: the same DOM, no mismatch.
// The island is marked hydrated (data-hydrated, which tests wait for) only once its
// deferred parts are hydrated too (views/lib/hydrate.tsx, HydrationWait).
import { Suspense, use, useContext, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { HydrationWait } from './hydration-wait';

const browser = typeof document !== 'undefined';

/** Options: onDemand fetches the code in the browser only when the part first renders (a
 * tab opened later, or one the address opens at once: the server renders it either way), and
 * fallback is what shows while that fetch runs after a click (nothing by default; during
 * hydration the server's HTML stays). */
export type DeferredOptions = { onDemand?: boolean; fallback?: ReactNode };

export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, opts: DeferredOptions = {}): ComponentType<P> {
  // The promise carries its outcome as React's use() reads it (status and value), so a part
  // whose code is here renders at once, and use() is called on every render: a part that
  // suspended and is replayed calls the same hooks in the same order (calling use() only
  // while the code was missing broke that replay: React error 467 during hydration).
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () => {
    if (!loading) {
      const p = load().then((c) => {
        Object.assign(p, { status: 'fulfilled', value: c });
        return c;
      });
      loading = p;
    }
    return loading;
  };
  // in the browser the fetch starts with the island's module, beside React's (or on the first
  // render, onDemand); on the server it settles before the first render
  if (!browser || !opts.onDemand) void start().catch(() => undefined);

  // Once the code is here a part renders at once (React.lazy would suspend on its first
  // render even then, and a screen shown after a click would miss that render's effects).
  function Part({ onReady, ...rest }: P & { onReady?: () => void }) {
    const C = use(start());
    useEffect(() => onReady?.(), [onReady]);
    return <C {...(rest as P)} />;
  }

  function Deferred(props: P) {
    const wait = useContext(HydrationWait);
    // counted in once, on the first render (the hydration that meets the boundary)
    const [done] = useState(() => (browser && wait ? wait() : undefined));
    return (
      <Suspense fallback={opts.fallback ?? null}>
        <Part {...props} onReady={done} />
      </Suspense>
    );
  }
  return Deferred;
}
