// The verification result: the banner, the badge and holder, the checks, the downloads;
// and the not-found card.
import { useState, type ReactNode } from 'react';
import BadgeCheck from 'lucide-react/icons/badge-check';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import CalendarDays from 'lucide-react/icons/calendar-days';
import Check from 'lucide-react/icons/check';
import Copy from 'lucide-react/icons/copy';
import Download from 'lucide-react/icons/download';
import FileJson from 'lucide-react/icons/file-json';
import FileKey2 from 'lucide-react/icons/file-key-2';
import Fingerprint from 'lucide-react/icons/fingerprint';
import Hourglass from 'lucide-react/icons/hourglass';
import ImageDown from 'lucide-react/icons/image-down';
import KeyRound from 'lucide-react/icons/key-round';
import Linkedin from 'lucide-react/icons/linkedin';
import Minus from 'lucide-react/icons/minus';
import SearchX from 'lucide-react/icons/search-x';
import ShieldAlert from 'lucide-react/icons/shield-alert';
import ShieldCheck from 'lucide-react/icons/shield-check';
import ShieldOff from 'lucide-react/icons/shield-off';
import ShieldX from 'lucide-react/icons/shield-x';
import X from 'lucide-react/icons/x';
import { Button, Card, Chip, LinkButton } from '../ui';
import { BadgeArt, BadgeIcon } from '../badges';
import { Avatar } from '../avatar';
import { levelLabel, typeLabel } from '../../lib/badges';
import { toast, toastError } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { VerifyResult, MSG_NOT_VERIFIED } from './model';
import { LocalTime } from '../LocalTime';

export function NotFound({ query }: { query: string }) {
  return (
    <Card className="border-destructive/40 p-6 sm:p-8" data-testid="not-found">
      <div className="flex flex-col items-center text-center">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <SearchX className="h-7 w-7" aria-hidden="true" />
        </span>
        <h2 className="mt-4 text-xl font-bold tracking-tight">Badge Not Found</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {MSG_NOT_VERIFIED}
          {query && (
            <>
              {' '}No badge matches <span className="break-all font-mono text-foreground">{query}</span>.
            </>
          )}
        </p>
      </div>
      <div className="mx-auto mt-6 max-w-md rounded-lg border bg-muted/40 p-4 text-sm">
        <p className="font-medium">This can happen when:</p>
        <ul className="mt-2 space-y-1.5 text-muted-foreground">
          <li className="flex gap-2"><X className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden="true" /> The badge was not issued by Meritmark</li>
          <li className="flex gap-2"><X className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden="true" /> The badge has been revoked or has expired</li>
          <li className="flex gap-2"><X className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden="true" /> The verification ID is in an invalid format</li>
        </ul>
        <p className="mt-3 text-xs text-muted-foreground">
          A verification ID looks like <span className="font-mono">MM-7K2D-9QXA-4PZM</span>; shared links end in a 32-character code, which must be copied exactly.
        </p>
      </div>
    </Card>
  );
}

export const banners = {
  valid: { Icon: ShieldCheck, title: 'Verified Badge', tone: 'border-success/40 bg-success/10', icon: 'bg-success text-white', text: 'This badge is genuine: issued by Meritmark, signed, and in force.' },
  revoked: { Icon: ShieldX, title: 'Badge Revoked', tone: 'border-destructive/40 bg-destructive/10', icon: 'bg-destructive text-destructive-foreground', text: '' },
  expired: { Icon: Hourglass, title: 'Badge Expired', tone: 'border-warning/60 bg-warning/15', icon: 'bg-warning text-warning-foreground', text: '' },
  invalid: { Icon: ShieldAlert, title: 'Verification Failed', tone: 'border-destructive/40 bg-destructive/10', icon: 'bg-destructive text-destructive-foreground', text: '' },
  untrusted: { Icon: ShieldOff, title: 'Issuer Not Trusted', tone: 'border-destructive/40 bg-destructive/10', icon: 'bg-destructive text-destructive-foreground', text: '' },
} as const;

export const FORMATS: Record<string, string> = { png: 'badge image (PNG)', jwt: 'signed credential (JWT)', json: 'JSON credential' };

export function ResultView({ r, fileName, holder }: { r: VerifyResult; fileName?: string; holder?: boolean }) {
  const fromFile = r.source === 'file';
  const known = !fromFile || !!r.user.name; // a file naming no grant of ours (or another issuer) has no holder to show
  const checks = <Checks r={r} />;
  const file = fromFile && (
    <p className="break-all text-xs text-muted-foreground" data-testid="verify-file-name">
      Checked {FORMATS[r.format || ''] || 'file'}{fileName ? `: ${fileName}` : ''}
      {r.claimedIssuer ? <> · names the issuer <span className="font-mono">{r.claimedIssuer}</span></> : null}
    </p>
  );
  if (!known) {
    return (
      <div className="space-y-6">
        <Banner r={r} />
        <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
          <Card className="p-5 lg:col-span-3">
            <h3 className="font-semibold">{r.status === 'untrusted' ? 'Not a Meritmark credential' : 'Not a badge we issued'}</h3>
            <p className="mt-2 text-sm text-muted-foreground">
              {r.status === 'untrusted'
                ? 'We only vouch for credentials signed with Meritmark\'s own published keys. This file names another issuer, so we did not fetch its keys or trust its claims'
                : 'No badge issued by Meritmark matches this credential'}
              {r.badge.name ? <> (it claims to be <span className="font-medium text-foreground">{r.badge.name}</span>).</> : '.'}
            </p>
            {r.trustDetail && r.status === 'untrusted' && <p className="mt-3 break-words rounded-md bg-muted/50 p-3 font-mono text-xs">{r.trustDetail}</p>}
            <div className="mt-3">{file}</div>
          </Card>
          <div className="lg:col-span-2">{checks}</div>
        </div>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <Banner r={r} />

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        <Card className="overflow-hidden lg:col-span-3">
          <div className="flex flex-col gap-5 p-6 sm:flex-row sm:items-start">
            {r.badge.id ? <BadgeArt id={r.badge.id} name={r.badge.name} className="h-24 w-24" /> : <BadgeIcon icon={r.badge.icon} color={r.badge.color} size="lg" />}
            <div className="min-w-0">
              <h3 className="text-2xl font-bold tracking-tight" data-testid="verify-badge-name">
                {r.badge.id ? (
                  <a href={`/badges/${encodeURIComponent(r.badge.id)}`} className="underline-offset-4 hover:underline" data-testid="verify-badge-link">{r.badge.name}</a>
                ) : (
                  r.badge.name
                )}
              </h3>
              <div className="mt-3 flex items-center gap-3" data-testid="verify-awarded">
                <Avatar name={r.user.name} url={r.user.avatar} className="h-10 w-10" />
                <div className="min-w-0 text-sm">
                  <p>
                    <span className="text-muted-foreground">Awarded to </span>
                    <span className="font-semibold" data-testid="verify-holder">
                      {r.user.profileUrl ? (
                        <a href={r.user.profileUrl} className="underline underline-offset-4 hover:text-primary" data-testid="verify-holder-link">{r.user.name}</a>
                      ) : (
                        r.user.name
                      )}
                    </span>
                  </p>
                  <p className="truncate text-muted-foreground" title="The address is partly hidden to protect the holder's privacy.">{r.user.email}</p>
                </div>
              </div>
              <div className="mt-4 flex flex-wrap gap-2">
                <Chip tone="outline">{r.badge.category}</Chip>
                <Chip tone="secondary">{typeLabel(r.badge.type)}</Chip>
                {r.badge.level && <Chip tone="outline">{levelLabel(r.badge.level)}</Chip>}
              </div>
              {r.badge.description && <p className="mt-3 leading-relaxed text-muted-foreground">{r.badge.description}</p>}
              {r.badge.id && r.badge.type === 'skill' && (
                <p className="mt-2 text-sm">
                  <a href={`/badges/${r.badge.id}/assessment`} className="font-medium text-primary underline underline-offset-2" data-testid="verify-report-link">
                    How this badge is assessed: the technical report
                  </a>
                </p>
              )}
            </div>
          </div>
          <dl className="grid gap-4 border-t px-6 py-5 text-sm sm:grid-cols-3">
            <div>
              <dt className="flex items-center gap-1.5 text-muted-foreground"><CalendarDays className="h-4 w-4" aria-hidden="true" /> Issued</dt>
              <dd className="mt-1 font-medium" data-testid="verify-issued"><LocalTime iso={r.issuedAt} /></dd>
            </div>
            <div>
              <dt className="flex items-center gap-1.5 text-muted-foreground"><CalendarClock className="h-4 w-4" aria-hidden="true" /> {r.expiresAt && r.status === 'expired' ? 'Expired' : 'Expires'}</dt>
              <dd className="mt-1 font-medium" data-testid="verify-expires">{r.expiresAt ? <LocalTime iso={r.expiresAt} /> : 'Does not expire'}</dd>
            </div>
            <div className="min-w-0">
              <dt className="flex items-center gap-1.5 text-muted-foreground"><Fingerprint className="h-4 w-4" aria-hidden="true" /> Verification ID</dt>
              <dd className="mt-1 break-all font-mono text-xs font-medium leading-5" data-testid="verify-id">{r.verificationId}</dd>
            </div>
          </dl>
          {r.result && (
            <div className="border-t px-6 py-4 text-sm" data-testid="verify-result">
              {r.result.assessmentType === 'Exam' ? (
                r.result.scoreHidden ? (
                  <p>Earned by passing an exam. The holder chose not to show the score here; the signed credential carries it.</p>
                ) : (
                  <p>
                    Exam score <span className="font-semibold tabular-nums" data-testid="verify-score">{r.result.score}%</span> (pass mark {r.result.passMark}%).
                  </p>
                )
              ) : (
                <p>Earned on submitted work reviewed by an administrator.</p>
              )}
              {r.result.reportUrl && (
                <p className="mt-1">
                  <a className="font-medium text-primary underline-offset-4 hover:underline" href={r.result.reportUrl}>
                    How the assessment is built and how reliable it is
                  </a>
                </p>
              )}
            </div>
          )}
        </Card>

        <div className="space-y-6 lg:col-span-2">
          {checks}
          {file}
          {r.isValid && r.credential.id && <Downloads r={r} holder={!!holder} />}
        </div>
      </div>
    </div>
  );
}

export function Banner({ r }: { r: VerifyResult }) {
  const b = banners[(r.status in banners ? r.status : 'invalid') as keyof typeof banners];
  const Icon = b.Icon;
  return (
    <div className={cn('flex items-start gap-4 rounded-xl border p-5', b.tone)} role="status" data-testid="verify-banner">
      <span className={cn('flex h-11 w-11 shrink-0 items-center justify-center rounded-full', b.icon)}>
        <Icon className="h-6 w-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <h2 className="text-lg font-bold tracking-tight">{b.title}</h2>
        <p className="mt-0.5 break-words text-sm text-muted-foreground" data-testid="verify-reason">{r.isValid ? b.text : r.reason}</p>
      </div>
    </div>
  );
}

/** The checks, for an id and for a file (an untrusted file's signature and status are not checked). */
export function Checks({ r }: { r: VerifyResult }) {
  const untrusted = r.status === 'untrusted';
  const known = r.source !== 'file' || !!r.user.name;
  const trusted = r.checks.issuerTrusted !== false && !!r.checks.issuerKey;
  return (
    <Card className="p-5">
      <h3 className="font-semibold">What we checked</h3>
      <ul className="mt-3 space-y-3 text-sm" data-testid="verify-checks">
        <CheckRow
          ok={r.checks.signature}
          skipped={untrusted}
          label="Signature valid"
          detail={untrusted ? 'Not checked: we use only our own published keys, never keys a file points to' : r.checks.signature ? 'The signature matches the Open Badges 3.0 credential' : r.checks.keyRetired ? 'Signed with a key the issuer has retired' : 'The signature does not match'}
        />
        <CheckRow
          ok={trusted}
          label="Issued by Meritmark"
          detail={
            untrusted
              ? `Not trusted: it names ${r.claimedIssuer || 'no issuer'}`
              : r.checks.issuerKey
                ? `Key ${r.checks.issuerKey.slice(0, 12)}… in our published key set`
                : 'No known issuing key'
          }
        />
        <CheckRow ok={r.checks.notRevoked} skipped={!known} label="Not revoked" detail={!known ? 'Not checked: no badge of ours to look up' : r.checks.notRevoked ? 'Absent from the revocation list' : r.revocationReason || 'Listed as revoked'} />
        <CheckRow
          ok={r.checks.notExpired}
          skipped={!known}
          label="Not expired"
          detail={!known ? 'Not checked' : r.expiresAt ? (<>{r.checks.notExpired ? 'Valid until' : 'Expired'} <LocalTime iso={r.expiresAt} /></>) : 'No expiry date'}
        />
      </ul>
    </Card>
  );
}

export function CheckRow({ ok, skipped, label, detail }: { ok: boolean; skipped?: boolean; label: string; detail: ReactNode }) {
  return (
    <li className="flex gap-3" data-ok={skipped ? 'skipped' : ok}>
      <span
        className={cn(
          'mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full',
          skipped ? 'bg-muted text-muted-foreground' : ok ? 'bg-success/15 text-success' : 'bg-destructive/15 text-destructive',
        )}
      >
        {skipped ? <Minus className="h-3.5 w-3.5" aria-hidden="true" /> : ok ? <Check className="h-3.5 w-3.5" aria-hidden="true" /> : <X className="h-3.5 w-3.5" aria-hidden="true" />}
      </span>
      <span className="min-w-0">
        <span className="font-medium">{label}</span>
        <span className="sr-only">{skipped ? ': not checked' : ok ? ': passed' : ': failed'}</span>
        <span className="block break-words text-muted-foreground">{detail}</span>
      </span>
    </li>
  );
}

/** The credential's files; the holder also gets Add to LinkedIn (it adds to their own profile). */
export function Downloads({ r, holder }: { r: VerifyResult; holder: boolean }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(r.credential.verifyUrl);
      setCopied(true);
      toast({ title: 'Badge verification link copied!', variant: 'success' });
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toastError('Failed to copy to clipboard');
    }
  }
  const dl = 'flex items-center gap-3 rounded-lg border px-3 py-2.5 text-sm hover:bg-accent';
  return (
    <Card className="p-5">
      <h3 className="font-semibold">Credential</h3>
      <p className="mt-1 text-sm text-muted-foreground">A signed Open Badges 3.0 credential anyone can check with our public keys.</p>
      <div className="mt-4 grid gap-2" data-testid="verify-downloads">
        <a className={dl} href={r.credential.png + '?download=1'} download>
          <ImageDown className="h-4 w-4 text-primary" aria-hidden="true" />
          <span className="flex-1">Badge image <span className="text-muted-foreground">(PNG, credential baked in)</span></span>
          <Download className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
        </a>
        <a className={dl} href={r.credential.json + '?download=1'} download>
          <FileJson className="h-4 w-4 text-primary" aria-hidden="true" />
          <span className="flex-1">Credential <span className="text-muted-foreground">(JSON)</span></span>
          <Download className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
        </a>
        <a className={dl} href={r.credential.jwt + '?download=1'} download>
          <FileKey2 className="h-4 w-4 text-primary" aria-hidden="true" />
          <span className="flex-1">Signed credential <span className="text-muted-foreground">(JWT)</span></span>
          <Download className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
        </a>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        {holder && (
          <LinkButton href={r.credential.linkedinAddUrl} target="_blank" rel="noopener noreferrer" size="sm" data-testid="linkedin-add">
            <Linkedin aria-hidden="true" /> Add to LinkedIn
          </LinkButton>
        )}
        <Button variant="outline" size="sm" onClick={copy}>
          {copied ? <BadgeCheck aria-hidden="true" /> : <Copy aria-hidden="true" />} {copied ? 'Copied!' : 'Copy link'}
        </Button>
      </div>
      <p className="mt-4 flex items-start gap-1.5 text-xs text-muted-foreground">
        <KeyRound className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
        <span>
          Check it yourself: <a className="underline underline-offset-2 hover:text-foreground" href={r.credential.jwks}>public keys</a>,{' '}
          <a className="underline underline-offset-2 hover:text-foreground" href={r.credential.issuer}>issuer</a>,{' '}
          <a className="underline underline-offset-2 hover:text-foreground" href={r.credential.statusList}>revocation list</a>.
        </span>
      </p>
    </Card>
  );
}
