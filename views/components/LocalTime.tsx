// A time as the reader reads it: <time dateTime=ISO>, rendered on the server in UTC with
// the zone named ("Nov 21, 2026 UTC", "Nov 21, 2026, 14:05 UTC"), then shown in the reader's
// own zone once the page runs in a browser. Inside an island an effect switches it after
// hydration (the first client render matches the server's, so no hydration mismatch);
// outside islands entry-client rewrites it (views/lib/localtime.ts).
import { useEffect, useState } from 'react';
import { date, dateTime } from '../lib/format';
import { localText } from '../lib/localtime';

export function LocalTime({ iso, withTime = false, className, testid }: { iso: string | null | undefined; withTime?: boolean; className?: string; testid?: string }) {
  const [local, setLocal] = useState<{ text: string; title: string } | null>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the reader's zone exists only in the browser: switch after hydration so the server's HTML matches
    setLocal(iso ? localText(iso, withTime) : null);
  }, [iso, withTime]);
  if (!iso) return null;
  const utc = dateTime(iso);
  if (!utc) return null;
  return (
    <time
      dateTime={iso}
      data-local={withTime ? 'datetime' : 'date'}
      data-localised={local ? 'true' : undefined}
      title={local ? local.title : utc}
      className={className}
      data-testid={testid}
    >
      {local ? local.text : withTime ? utc : `${date(iso)} UTC`}
    </time>
  );
}
