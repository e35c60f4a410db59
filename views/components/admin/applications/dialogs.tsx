// The applications tab's dialogs: reject with a reason, and View Details (profile, payment,
// files, quiz attempts and the application's audit history) in a side panel (issue 37: a
// row opens its details in a side panel), the review actions at its foot.
import { useEffect, useState, type ReactNode } from 'react';
import Download from 'lucide-react/icons/download';
import FileText from 'lucide-react/icons/file-text';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button, Chip, Label, Skeleton, Textarea } from '../../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, SheetContent } from '../../dialog';
import { Avatar } from '../../avatar';
import { api } from '../../../lib/api';
import { money, capitalize, fileSize } from '../../../lib/format';
import { AuditChanges, actionLabel, type AuditEntry } from '../AuditLog';
import { QuizAttemptHistory } from '../QuizAttemptHistory';
import { Actions, Application, DEFAULT_REASON, STATUS_LABEL, STATUS_TONE, reviewed, typeLabel } from './model';
import { Detail, ExternalLink, RenewalNote, ScoreChip } from './parts';
import { PaymentChip } from './model';
import { ReviewButtons } from './ApplicationCard';
import { IntegritySection } from './IntegritySection';
import { LocalTime } from '../../LocalTime';

export function RejectDialog({ app, busy, onClose, onReject }: { app: Application | null; busy: boolean; onClose: () => void; onReject: (a: Application, reason: string) => void }) {
  const [reason, setReason] = useState('');
  // a fresh reason for each application opened (adjusted during render, not in an effect)
  const [shown, setShown] = useState(app);
  if (app !== shown) {
    setShown(app);
    if (app) setReason('');
  }
  const again = app ? reviewed(app) : false;
  return (
    <Dialog open={!!app} onOpenChange={(o) => !o && onClose()}>
      {app && (
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{again ? 'Re-reject application' : 'Reject application'}</DialogTitle>
            <DialogDescription>
              {app.user?.name || 'The applicant'} · {app.badge?.name || 'badge'}.
              {app.status === 'approved' && ' The badge already granted will be revoked.'} The applicant is told by e-mail.
            </DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              onReject(app, reason);
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor="reject-reason">Reason (optional)</Label>
              <Textarea id="reject-reason" value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} placeholder={DEFAULT_REASON} rows={4} />
              <p className="text-xs text-muted-foreground">Left empty, the reason is “{DEFAULT_REASON}”.</p>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={busy}>
                {busy && <Loader2 className="animate-spin" />} {again ? 'Re-reject' : 'Reject'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

export function DetailsDialog({ app, actions, onClose }: { app: Application | null; actions: Actions; onClose: () => void }) {
  const [history, setHistory] = useState<AuditEntry[] | null>(null);
  const [shownId, setShownId] = useState(app?._id);
  if (app?._id !== shownId) {
    setShownId(app?._id);
    setHistory(null);
  }
  useEffect(() => {
    if (!app) return;
    let live = true;
    api<{ history: AuditEntry[] }>(`/admin/applications/${app._id}`)
      .then((r) => live && setHistory(r.history))
      .catch(() => live && setHistory([]));
    return () => {
      live = false;
    };
  }, [app?._id, app?.status, app?.reviewedAt]); // eslint-disable-line react-hooks/exhaustive-deps -- refetch when the application or its review changes, not on every new object

  return (
    <Dialog open={!!app} onOpenChange={(o) => !o && onClose()}>
      {app && app.user && app.badge && (
        <SheetContent wide aria-describedby={undefined}>
          <DialogHeader className="pr-8">
            <DialogTitle>Application details</DialogTitle>
            <p className="text-sm text-muted-foreground">
              {app.badge.name} · <Chip tone={STATUS_TONE[app.status] || 'secondary'}>{STATUS_LABEL[app.status] || app.status}</Chip>
            </p>
            <RenewalNote a={app} />
          </DialogHeader>
          <div className="grid gap-6">
            <Section title="Applicant">
              <div className="flex items-center gap-3">
                <Avatar name={app.user.name} url={app.user.profilePicUrl} className="h-14 w-14" textClassName="text-lg" />
                <div className="min-w-0">
                  <p className="font-semibold">{app.user.name}</p>
                  <p className="text-sm text-muted-foreground">{app.user.email}</p>
                  {app.user.bio && <p className="mt-1 text-sm">{app.user.bio}</p>}
                </div>
              </div>
              <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <Detail label="Name on application">{app.fullName || app.user.name}</Detail>
                <Detail label="Email on application">{app.email || app.user.email}</Detail>
                <Detail label="Position">{app.position || app.user.position || '—'}</Detail>
                {app.user.company && <Detail label="Company">{app.user.company}</Detail>}
                {app.user.location && <Detail label="Location">{app.user.location}</Detail>}
                {app.user.phone && <Detail label="Phone">{app.user.phone}</Detail>}
                {app.user.experience > 0 && <Detail label="Experience">{app.user.experience} years</Detail>}
                {app.user.education && <Detail label="Education">{app.user.education}</Detail>}
                <Detail label="LinkedIn">
                  <ExternalLink href={app.linkedinUrl || app.user.linkedin} />
                </Detail>
                <Detail label="Portfolio">
                  <ExternalLink href={app.portfolioUrl || app.user.portfolio} />
                </Detail>
                {app.user.skills?.length > 0 && (
                  <Detail label="Skills" className="sm:col-span-2">
                    <span className="flex flex-wrap gap-1.5">
                      {app.user.skills.map((s) => (
                        <Chip key={s} tone="secondary">{s}</Chip>
                      ))}
                    </span>
                  </Detail>
                )}
              </dl>
            </Section>

            <Section title="Application">
              <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
                <Detail label="Badge">{app.badge.name}</Detail>
                <Detail label="Type">{typeLabel(app.badge.type)}</Detail>
                <Detail label="Category">{app.badge.category}</Detail>
                <Detail label="Submitted"><LocalTime iso={app.createdAt} withTime /></Detail>
                <Detail label="Reviewed">{app.reviewedAt ? <><LocalTime iso={app.reviewedAt} withTime />{app.reviewedBy ? ' by ' + app.reviewedBy.name : ''}</> : '—'}</Detail>
                <Detail label="Quiz score">
                  <ScoreChip score={app.quizScore} />
                </Detail>
                {app.rejectionReason && (
                  <Detail label="Rejection reason" className="sm:col-span-3">
                    {app.rejectionReason}
                  </Detail>
                )}
                {app.description && (
                  <Detail label="Description" className="sm:col-span-3">
                    <span className="whitespace-pre-line">{app.description}</span>
                  </Detail>
                )}
              </dl>
            </Section>

            {app.integrity && (
              <Section title="Integrity checks">
                <IntegritySection key={app.integrity.attemptId} review={app.integrity} />
              </Section>
            )}

            {app.badge.type === 'skill' && (
              <Section title="Quiz attempts">
                <QuizAttemptHistory userId={app.user._id} badgeId={app.badge._id} />
              </Section>
            )}

            <Section title={`Files (${app.proofFiles.length})`}>
              {app.proofFiles.length === 0 ? (
                <p className="text-sm text-muted-foreground">No files were uploaded.</p>
              ) : (
                <ul className="divide-y rounded-lg border">
                  {app.proofFiles.map((f) => (
                    <li key={f._id} className="flex items-center gap-3 px-3 py-2.5">
                      <FileText className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                      <div className="min-w-0 flex-1">
                        <p className="truncate text-sm font-medium">{f.originalName}</p>
                        <p className="text-xs text-muted-foreground">
                          {f.kind === 'profilePic' ? 'Profile picture' : capitalize(f.kind)} · {fileSize(f.size, 1)}
                        </p>
                      </div>
                      <a href={f.downloadUrl} download className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-primary hover:bg-accent" aria-label={`Download ${f.originalName}`}>
                        <Download className="h-4 w-4" aria-hidden="true" /> Download
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </Section>

            <Section title="Payment">
              <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
                <Detail label="Status">
                  <PaymentChip a={app} />
                </Detail>
                <Detail label="Amount">{money(app.paymentId ? app.paymentId.amount : app.price)}</Detail>
                <Detail label="Completed">{app.paymentCompletedAt ? <LocalTime iso={app.paymentCompletedAt} withTime /> : '—'}</Detail>
                {app.paymentId && (
                  <>
                    {app.paymentId.discountAmount > 0 && (
                      <Detail label="Discount">
                        {money(app.paymentId.discountAmount)} of {money(app.paymentId.originalAmount)}
                        {app.paymentId.couponCode && <> ({app.paymentId.couponCode})</>}
                      </Detail>
                    )}
                    <Detail label="Provider">{app.paymentId.provider === 'free-grant' ? 'Free grant coupon' : capitalize(app.paymentId.provider)}</Detail>
                    <Detail label="Transaction ID" className="sm:col-span-2">
                      <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs">{app.paymentId.transactionId || '—'}</code>
                    </Detail>
                  </>
                )}
              </dl>
            </Section>

            {app.grant && (
              <Section title="Badge grant">
                <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                  <Detail label="Verification ID">
                    <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{app.grant.verificationId}</code>
                  </Detail>
                  <Detail label="Public verification ID">
                    <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs">{app.grant.publicVerificationId}</code>
                  </Detail>
                  <Detail label="Granted"><LocalTime iso={app.grant.grantedAt} withTime /></Detail>
                  <Detail label="State">
                    {app.grant.revokedAt ? <Chip tone="destructive">Revoked <LocalTime iso={app.grant.revokedAt} /></Chip> : <Chip tone="success">In force</Chip>}
                  </Detail>
                </dl>
              </Section>
            )}

            <Section title="Review history">
              {history === null ? (
                <Skeleton className="h-10 w-full" />
              ) : history.length === 0 ? (
                <p className="text-sm text-muted-foreground">No review actions yet.</p>
              ) : (
                <ol className="space-y-2">
                  {history.map((h) => (
                    <li key={h._id} className="rounded-md border px-3 py-2 text-sm">
                      <p>
                        <span className="font-medium">{actionLabel(h.action)}</span>
                        <span className="text-muted-foreground"> · {h.actor?.name || h.actor?.email || 'system'} · <LocalTime iso={h.createdAt} withTime /></span>
                      </p>
                      <AuditChanges before={h.before} after={h.after} />
                    </li>
                  ))}
                </ol>
              )}
            </Section>
          </div>
          <ReviewButtons a={app} actions={actions} className="sticky -bottom-4 z-10 -mx-4 -mb-4 mt-auto border-t bg-background px-4 py-4 sm:-bottom-6 sm:-mx-6 sm:-mb-6 sm:px-6" />
        </SheetContent>
      )}
    </Dialog>
  );
}
