import type { ScoreBin } from './model';

/** The score distribution as a small server-rendered SVG bar chart (no script): one bar per
 * ten points of score, the pass mark as a dashed line. Screen readers get the counts. */
export function ScoreChart({ bins, passMark }: { bins: ScoreBin[]; passMark: number }) {
  const W = 320;
  const H = 150;
  const top = 12;
  const base = 120;
  const left = 8;
  const bw = (W - 2 * left) / bins.length;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const markX = left + (passMark / 100) * (W - 2 * left);
  const label = bins.map((b) => `${b.from} to ${b.to}%: ${b.count}`).join('; ');
  return (
    <figure data-testid="score-chart">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full max-w-md" role="img" aria-label={`Attempts by score. ${label}. Pass mark ${passMark}%.`}>
        {bins.map((b, i) => {
          const h = ((base - top) * b.count) / max;
          const x = left + i * bw + 2;
          return (
            <g key={b.from}>
              <rect x={x} y={base - h} width={bw - 4} height={h} rx="2" className={b.from >= passMark || b.to > passMark ? 'fill-primary' : 'fill-muted-foreground/50'} />
              {b.count > 0 && (
                <text x={x + (bw - 4) / 2} y={base - h - 3} textAnchor="middle" className="fill-foreground text-[9px] tabular-nums">
                  {b.count}
                </text>
              )}
            </g>
          );
        })}
        <line x1={left} x2={W - left} y1={base} y2={base} className="stroke-border" strokeWidth="1" />
        <line x1={markX} x2={markX} y1={top - 6} y2={base} className="stroke-foreground" strokeWidth="1" strokeDasharray="3 2" />
        <text x={markX + 3} y={top} className="fill-foreground text-[9px]">pass {passMark}%</text>
        {[0, 50, 100].map((p) => (
          <text key={p} x={left + (p / 100) * (W - 2 * left)} y={base + 14} textAnchor={p === 0 ? 'start' : p === 100 ? 'end' : 'middle'} className="fill-muted-foreground text-[9px]">
            {p}%
          </text>
        ))}
      </svg>
      <figcaption className="mt-2 text-xs text-muted-foreground">
        Attempts by score, in steps of ten points. Bars that hold passing scores are coloured; the dashed line is the pass mark.
      </figcaption>
    </figure>
  );
}
