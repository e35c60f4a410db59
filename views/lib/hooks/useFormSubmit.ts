import { useEffect, useRef, useState, type FormEvent } from 'react';

/**
 * A form's submit handler with its busy flag: prevents the browser's submit, ignores a
 * second submit while the first runs, calls action with the form's data and, when it
 * throws, onError with what it threw. busy is true while action runs (and is not set on an
 * unmounted component: an action may navigate or close its dialog).
 */
export function useFormSubmit(action: (data: FormData, form: HTMLFormElement) => Promise<void>, onError: (err: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await action(new FormData(e.currentTarget), e.currentTarget);
    } catch (err) {
      onError(err);
    } finally {
      running.current = false;
      if (mounted.current) setBusy(false);
    }
  };
  return { busy, onSubmit };
}
