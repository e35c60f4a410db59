import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';

export type Resource<T> = {
  /** the last answer (kept while a newer request is on its way) */
  data: T | undefined;
  /** the current request's error, if it failed */
  error: unknown;
  /** true until the current request has answered */
  loading: boolean;
  /** asks again (a new request; the one in flight is aborted) */
  reload: () => void;
};

/**
 * Loads a resource for a component: GET key from the API (or load(signal) when given),
 * again whenever key changes or reload() is called; a null key loads nothing. The request
 * in flight is aborted when the component unmounts or a newer one starts, and a late answer
 * to a superseded request is dropped, so it never overwrites a newer one.
 */
export function useResource<T>(key: string | null, load?: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const [tick, setTick] = useState(0);
  const [done, setDone] = useState<{ req: string; data: T | undefined; error: unknown } | null>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const req = key === null ? null : `${tick}:${key}`;
  useEffect(() => {
    if (req === null || key === null) return;
    const ctrl = new AbortController();
    const p = loadRef.current ? loadRef.current(ctrl.signal) : api<T>(key, { signal: ctrl.signal });
    p.then(
      (data) => {
        if (!ctrl.signal.aborted) setDone({ req, data, error: undefined });
      },
      (error: unknown) => {
        if (!ctrl.signal.aborted) setDone((d) => ({ req, data: d?.data, error }));
      },
    );
    return () => ctrl.abort();
  }, [req, key]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const current = done !== null && done.req === req;
  return { data: done?.data, error: current ? done.error : undefined, loading: req !== null && !current, reload };
}
