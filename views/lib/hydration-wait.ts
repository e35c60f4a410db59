import { createContext } from 'react';

/** Given by hydrate.tsx to an island: counts a deferred part in (views/lib/deferred.tsx);
 * the function returned counts it out once that part is hydrated. */
export const HydrationWait = createContext<(() => () => void) | null>(null);
