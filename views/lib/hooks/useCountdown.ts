import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Seconds left until deadline (ms since the epoch by the server's clock; offsetMs is the
 * server's clock minus the browser's), ticking every 250 ms while deadline is not null;
 * onExpire runs once when it reaches 0. Once deadline goes back to null the last value
 * stays (a submitted quiz shows the time it was submitted at); null before any deadline.
 */
export function useCountdown(deadline: number | null, offsetMs: number, onExpire: () => void): number | null {
  const [remaining, setRemaining] = useState<number | null>(null);
  const expire = useRef(onExpire);
  useEffect(() => {
    expire.current = onExpire;
  });
  // a layout effect: the first value is there before the browser paints the running timer
  useLayoutEffect(() => {
    if (deadline === null) return;
    let fired = false;
    const tick = () => {
      const s = Math.max(0, (deadline - (Date.now() + offsetMs)) / 1000);
      setRemaining(s);
      if (s <= 0 && !fired) {
        fired = true;
        expire.current();
      }
    };
    tick();
    const iv = setInterval(tick, 250);
    return () => clearInterval(iv);
  }, [deadline, offsetMs]);
  return remaining;
}
