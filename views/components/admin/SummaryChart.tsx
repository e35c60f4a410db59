// The last 30 days of applications (bars) and revenue (line), drawn as plain SVG.
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui';
import { money } from '../../lib/format';
import type { SummaryDay } from './SummaryCards';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 3" from "2026-11-03". */
function shortDay(d: string) {
  const [, m, day] = d.split('-').map(Number);
  return `${MONTHS[(m || 1) - 1]} ${day}`;
}

/** A round axis maximum at or above v (1, 2, 5 x 10^n). */
function niceMax(v: number) {
  if (v <= 0) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const W = 600;
const H = 160;
const PAD_T = 8;
const PAD_B = 4;

export function SummaryChart({ days }: { days: SummaryDay[] }) {
  const [hover, setHover] = useState<number | null>(null);
  const n = days.length || 1;
  const totalApps = days.reduce((a, d) => a + d.applications, 0);
  const totalRev = days.reduce((a, d) => a + d.revenue, 0);
  const maxApps = niceMax(Math.max(0, ...days.map((d) => d.applications)));
  const maxRev = niceMax(Math.max(0, ...days.map((d) => d.revenue)));
  const slot = W / n;
  const barW = Math.max(2, slot * 0.62);
  const y = (v: number, max: number) => PAD_T + (H - PAD_T - PAD_B) * (1 - v / max);
  const line = days.map((d, i) => `${i === 0 ? 'M' : 'L'}${(i * slot + slot / 2).toFixed(1)},${y(d.revenue, maxRev).toFixed(1)}`).join(' ');
  const h = hover === null ? null : days[hover];

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 pb-2">
        <div>
          <CardTitle className="text-base">Last 30 days</CardTitle>
          <CardDescription>
            {totalApps} {totalApps === 1 ? 'application' : 'applications'} · {money(totalRev)} revenue
          </CardDescription>
        </div>
        <div className="flex items-center gap-4 text-xs text-muted-foreground">
          <span className="flex items-center gap-1.5">
            <span className="h-2.5 w-2.5 rounded-sm bg-primary/70" aria-hidden="true" /> Applications
          </span>
          <span className="flex items-center gap-1.5">
            <span className="h-0.5 w-4 rounded bg-success" aria-hidden="true" /> Revenue
          </span>
        </div>
      </CardHeader>
      <CardContent>
        <p className="mb-2 h-5 text-sm tabular-nums" aria-live="polite" data-testid="chart-readout">
          {h ? (
            <>
              <span className="font-medium">{shortDay(h.date)}</span>
              <span className="text-muted-foreground">
                {' '}· {h.applications} {h.applications === 1 ? 'application' : 'applications'} · {money(h.revenue)}
              </span>
            </>
          ) : (
            <span className="text-muted-foreground">Point at a day for its figures.</span>
          )}
        </p>
        <div className="flex min-w-0 gap-2">
          <div className="flex w-8 shrink-0 flex-col justify-between py-1 text-right text-[10px] leading-none text-muted-foreground tabular-nums" aria-hidden="true">
            <span>{maxApps}</span>
            <span>0</span>
          </div>
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            className="h-40 min-w-0 flex-1 overflow-visible"
            role="img"
            aria-label={`Applications and revenue per day for the last 30 days: ${totalApps} applications and ${money(totalRev)} in total.`}
            onMouseLeave={() => setHover(null)}
          >
            {[0, 0.5, 1].map((f) => (
              <line key={f} x1={0} x2={W} y1={PAD_T + (H - PAD_T - PAD_B) * f} y2={PAD_T + (H - PAD_T - PAD_B) * f} className="stroke-border" strokeWidth={1} vectorEffect="non-scaling-stroke" strokeDasharray={f === 1 ? undefined : '3 3'} />
            ))}
            {days.map((d, i) => {
              const top = y(d.applications, maxApps);
              return (
                <g key={d.date}>
                  <rect
                    x={i * slot + (slot - barW) / 2}
                    y={top}
                    width={barW}
                    height={Math.max(0, H - PAD_B - top)}
                    rx={1.5}
                    className={hover === i ? 'fill-primary' : 'fill-primary/60'}
                  />
                  <rect
                    x={i * slot}
                    y={0}
                    width={slot}
                    height={H}
                    fill="transparent"
                    onMouseEnter={() => setHover(i)}
                    onFocus={() => setHover(i)}
                    onBlur={() => setHover(null)}
                    tabIndex={-1}
                  >
                    <title>{`${shortDay(d.date)}: ${d.applications} applications, ${money(d.revenue)}`}</title>
                  </rect>
                </g>
              );
            })}
            <path d={line} fill="none" className="stroke-success" strokeWidth={2} vectorEffect="non-scaling-stroke" strokeLinejoin="round" strokeLinecap="round" pointerEvents="none" />
          </svg>
          <div className="flex w-12 shrink-0 flex-col justify-between py-1 text-[10px] leading-none text-success tabular-nums" aria-hidden="true">
            <span>{money(maxRev).replace('.00', '')}</span>
            <span>$0</span>
          </div>
        </div>
        <div className="mt-1 flex justify-between pl-10 pr-14 text-[10px] text-muted-foreground" aria-hidden="true">
          <span>{days.length ? shortDay(days[0].date) : ''}</span>
          <span>{days.length ? shortDay(days[Math.floor(days.length / 2)].date) : ''}</span>
          <span>{days.length ? shortDay(days[days.length - 1].date) : ''}</span>
        </div>
      </CardContent>
    </Card>
  );
}
