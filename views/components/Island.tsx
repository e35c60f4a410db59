import type { ComponentType } from 'react';

type Collected = { n: string; p: unknown; l?: 1 };

/** Islands rendered during the current server render, in document order. */
export const collected: Collected[] = [];

/**
 * Renders an interactive component on the server inside <div data-island>, and records its
 * props so the Go side can write them into the page (with json.Marshal) for hydration.
 * The component must be the default export of views/islands/{name}.tsx.
 *
 * hydrate="interaction" defers loading React for this island until the visitor points at,
 * touches or focuses it (the header uses it, so content pages load almost no JavaScript).
 */
export function Island<P extends object>({ name, component: C, props, className, hydrate = 'load' }: {
  name: string;
  component: ComponentType<P>;
  props: P;
  className?: string;
  hydrate?: 'load' | 'interaction';
}) {
  const id = collected.length;
  collected.push(hydrate === 'interaction' ? { n: name, p: props, l: 1 } : { n: name, p: props });
  return (
    <div data-island={name} data-island-id={id} data-hydrate={hydrate} className={className}>
      <C {...props} />
    </div>
  );
}
