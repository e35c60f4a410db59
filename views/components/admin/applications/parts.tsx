// Small pieces of the applications' details and cards: a labelled value, a profile link,
// the quiz score chip, a renewal's note (the queue's first screen needs none of them).
import { type ReactNode } from 'react';
import Link2 from 'lucide-react/icons/link-2';
import { Chip } from '../../ui';
import { cn } from '../../../lib/cn';
import { externalHref } from '../../../lib/url';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import type { Application } from './model';

import { scoreTone } from '../../../lib/format';
import { LocalTime } from '../../LocalTime';
/** A labelled value in a definition list (dt + dd); the form field is BadgeAdminKit Field. */
export function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 break-words text-sm">{children}</dd>
    </div>
  );
}

export function ExternalLink({ href }: { href: string }) {
  if (!href) return <span className="text-muted-foreground">—</span>;
  const safe = externalHref(href);
  return safe ? (
    <a href={safe} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex max-w-full items-center gap-1 break-all text-primary hover:underline">
      <Link2 className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
      {href.replace(/^https?:\/\/(www\.)?/i, '')}
    </a>
  ) : (
    <span className="break-all">{href}</span>
  );
}

export function ScoreChip({ score }: { score: number | null }) {
  if (score === null || score === undefined) return <span className="text-muted-foreground">—</span>;
  return (
    <Chip tone={scoreTone(score)} data-testid="quiz-score" data-tone={scoreTone(score)}>
      {score.toFixed(1)}%
    </Chip>
  );
}

/** Says an application renews a badge, and which grant. */
export function RenewalNote({ a, className }: { a: Application; className?: string }) {
  if (!a.renews) return null;
  const g = a.renews;
  return (
    <p className={cn('flex items-center gap-1.5 text-xs text-muted-foreground', className)} data-testid="renewal-note">
      <RefreshCw className="h-3.5 w-3.5 shrink-0 text-primary" aria-hidden="true" />
      <span>
        <span className="font-medium text-foreground">Renewal</span> of <code className="rounded bg-muted px-1">{g.verificationId}</code>
        {g.expiresAt && <>, valid until <LocalTime iso={g.expiresAt} /></>}
      </span>
    </p>
  );
}
