import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import AlertCircle from 'lucide-react/icons/circle-alert';
import Info from 'lucide-react/icons/info';
import Loader2 from 'lucide-react/icons/loader-circle';
import Send from 'lucide-react/icons/send';
import Trophy from 'lucide-react/icons/trophy';
import UploadCloud from 'lucide-react/icons/cloud-upload';
import { API_BASE } from '../lib/api';
import { toast } from '../lib/toast';
import { cn } from '../lib/cn';
import { money, duration, pct } from '../lib/format';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Label, Textarea } from '../components/ui';
import { ACCEPT, Kind, MAX_DESCRIPTION, Picked, Profile, QuizResult, REQUIRED, checkFile } from '../components/application/model';
import { FileRow, SingleFile } from '../components/application/files';
import { ProfileCard, useProfileEditor } from '../components/application/ProfileCard';
import { LocalTime } from '../components/LocalTime';

export type { Profile };

export type ApplicationFormProps = {
  badge: { _id: string; name: string; type: string; price: number; requiresResume: boolean };
  profile: Profile;
  limits: { maxFileBytes: number; maxProofFiles: number; extensions: string[] };
  /** The server's unused passing attempt (skill badges). */
  attempt: { id: string; score: number; correctAnswers: number; total: number; passingScore: number; timeSpent: number } | null;
  /** The previous application, when it was rejected. */
  rejected: { reason: string; reviewedAt: string | null } | null;
  /** A renewal: the names of the resume and picture on file, used again unless replaced. */
  onFile?: { resume: string; profilePic: string } | null;
};

let seq = 0;

export default function ApplicationForm({ badge, profile: initial, limits, attempt, rejected, onFile }: ApplicationFormProps) {
  const skill = badge.type === 'skill';
  // a renewal does not ask again for the files on file (the server copies them)
  const needsResume = (skill || badge.requiresResume) && !onFile?.resume;
  const needsPicture = skill && !onFile?.profilePic;

  // ---- profile card ----
  const pe = useProfileEditor(initial);
  const { profile, editing, startEdit } = pe;

  // ---- arrival from the quiz ----
  const [quizResult, setQuizResult] = useState<QuizResult | null>(null);
  useEffect(() => {
    try {
      const raw = sessionStorage.getItem(`quizResult:${badge._id}`);
      if (raw) {
        const r = JSON.parse(raw) as QuizResult;
        // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage exists only in the browser: read after hydration so the server's HTML matches
        if (r && typeof r.score === 'number') setQuizResult(r);
      }
    } catch {
      // no storage: the server's attempt is shown instead
    }
  }, [badge._id]);
  const shownResult: QuizResult | null =
    quizResult && quizResult.passed ? quizResult : attempt ? { score: attempt.score, passed: true, correctAnswers: attempt.correctAnswers, total: attempt.total, timeSpent: attempt.timeSpent } : null;

  // ---- files ----
  const [files, setFiles] = useState<Picked[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const proofInput = useRef<HTMLInputElement>(null);

  const addFiles = useCallback(
    async (list: FileList | File[], kind: Kind) => {
      const incoming = Array.from(list);
      if (!incoming.length) return;
      setListError(null);
      const checked = await Promise.all(
        incoming.map(async (file) => ({ id: ++seq, file, kind, error: await checkFile(file, kind, limits.maxFileBytes), progress: 0 }) as Picked),
      );
      setFiles((cur) => {
        if (kind !== 'proof') return [...cur.filter((f) => f.kind !== kind), checked[0]];
        const proofs = cur.filter((f) => f.kind === 'proof');
        const fresh = checked.filter((c) => !proofs.some((p) => p.file.name === c.file.name && p.file.size === c.file.size));
        const room = limits.maxProofFiles - proofs.length;
        if (fresh.length > room) setListError(`You can upload at most ${limits.maxProofFiles} proof files.`);
        return [...cur, ...fresh.slice(0, Math.max(0, room))];
      });
    },
    [limits.maxFileBytes, limits.maxProofFiles],
  );
  const remove = (id: number) => {
    setListError(null);
    setFiles((cur) => cur.filter((f) => f.id !== id));
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!uploading && e.dataTransfer?.files?.length) void addFiles(e.dataTransfer.files, 'proof');
  };

  // ---- description ----
  const [description, setDescription] = useState('');

  // ---- submission ----
  const [uploading, setUploading] = useState(false);
  const [overall, setOverall] = useState(0);
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  useEffect(() => () => xhrRef.current?.abort(), []);

  const proofs = files.filter((f) => f.kind === 'proof');
  const resume = files.find((f) => f.kind === 'resume') || null;
  const picture = files.find((f) => f.kind === 'profilePic') || null;
  const values = pe.values;
  const missingProfile = REQUIRED.filter((r) => !values[r.key].trim());
  const missing: string[] = [];
  if (missingProfile.length) missing.push(`your ${missingProfile.map((m) => m.label).join(', ')}`);
  if (!skill && proofs.length === 0 && !values.portfolio.trim()) missing.push('at least one proof file or a portfolio URL');
  if (needsResume && !resume) missing.push('your resume');
  if (needsPicture && !picture) missing.push('a profile picture');
  const badFiles = files.filter((f) => f.error).length;
  const blocked = missing.length > 0 || badFiles > 0 || editing || description.length > MAX_DESCRIPTION;

  const pictureURL = useMemo(() => (picture && !picture.error ? URL.createObjectURL(picture.file) : null), [picture]);
  useEffect(() => () => (pictureURL ? URL.revokeObjectURL(pictureURL) : undefined), [pictureURL]);

  const submit = () => {
    if (blocked || uploading) return;
    const fd = new FormData();
    fd.append('badgeId', badge._id);
    fd.append('type', skill ? 'skill' : 'proof');
    fd.append('fullName', profile.name);
    fd.append('email', profile.email);
    fd.append('position', profile.position);
    fd.append('linkedin', profile.linkedin);
    fd.append('portfolio', profile.portfolio);
    fd.append('description', description);
    if (shownResult) {
      // accepted for compatibility; the server uses its own graded attempt
      fd.append('quizScore', String(shownResult.score));
      fd.append('quizPassed', String(shownResult.passed));
      fd.append('quizData', JSON.stringify(shownResult));
    }
    // files go last, in this order, so that upload progress maps onto them
    const order = [...(resume ? [resume] : []), ...(picture ? [picture] : []), ...proofs];
    for (const f of order) fd.append(f.kind === 'proof' ? 'proofFiles' : f.kind, f.file, f.file.name);
    const totalBytes = order.reduce((s, f) => s + f.file.size, 0);

    setUploading(true);
    setOverall(0);
    setFiles((cur) => cur.map((f) => ({ ...f, progress: 0 })));

    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open('POST', API_BASE + '/applications');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable || e.total === 0) return;
      const ratio = e.loaded / e.total;
      setOverall(ratio);
      // the fields are small: the share of the body sent is about the share of file bytes sent
      let sent = ratio * totalBytes;
      const progress = new Map<number, number>();
      for (const f of order) {
        const p = f.file.size === 0 ? (sent >= 0 ? 1 : 0) : Math.max(0, Math.min(1, sent / f.file.size));
        progress.set(f.id, p);
        sent -= f.file.size;
      }
      setFiles((cur) => cur.map((f) => (progress.has(f.id) ? { ...f, progress: progress.get(f.id)! } : f)));
    };
    const fail = (msg: string) => {
      setUploading(false);
      setOverall(0);
      // a message naming one of the files marks that file
      setFiles((cur) => cur.map((f) => ({ ...f, progress: 0, error: msg.includes(`"${f.file.name}"`) ? msg : f.error })));
      toast({ title: 'Submission Failed', description: msg, variant: 'destructive' });
    };
    xhr.onload = () => {
      let data: { msg?: string; error?: string; application?: { status?: string } } | null = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        setFiles((cur) => cur.map((f) => ({ ...f, progress: 1 })));
        setOverall(1);
        try {
          sessionStorage.removeItem(`quizResult:${badge._id}`);
        } catch {
          // ignore
        }
        toast({ title: 'Application Submitted Successfully!', description: data?.application?.status === 'pending' ? 'Your application is now in review.' : 'Next: complete the payment.', variant: 'success' });
        // the payment page also tells a free badge's applicant that review has started
        setTimeout(() => window.location.assign(`/payment/${badge._id}`), 900);
        return;
      }
      fail((data && (data.msg || data.error)) || (xhr.status === 413 ? 'The request is too large.' : `Request failed (${xhr.status}).`));
    };
    xhr.onerror = () => fail('Network error. Check your connection.');
    xhr.onabort = () => setUploading(false);
    xhr.send(fd);
  };

  return (
    <div className="space-y-6" data-testid="application-form">
      {shownResult && (
        <div role="status" data-testid="quiz-banner" className="flex flex-col gap-3 rounded-xl border border-success/40 bg-success/10 p-4 sm:flex-row sm:items-center">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-success/20 text-success">
            <Trophy className="h-5 w-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-semibold">{quizResult?.fromQuiz ? 'Quiz passed. Well done!' : 'You passed the quiz'}</p>
            <p className="text-sm text-muted-foreground">
              Score <span className="font-medium text-foreground">{pct(shownResult.score)}%</span> · {shownResult.correctAnswers} of {shownResult.total} correct
              {shownResult.timeSpent > 0 && <> · {duration(shownResult.timeSpent)}</>}. Complete your application below to continue.
            </p>
          </div>
        </div>
      )}

      {rejected && (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-warning/60 bg-warning/10 p-4 text-sm">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <p>
            Your previous application{rejected.reviewedAt ? <> (reviewed <LocalTime iso={rejected.reviewedAt} />)</> : ''} was not approved
            {rejected.reason ? <>: <span className="font-medium">{rejected.reason}</span></> : '.'} You can apply again.
          </p>
        </div>
      )}

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        <ProfileCard editor={pe} skill={skill} disabled={uploading} />

        {/* the application */}
        <Card className="min-w-0 lg:col-span-3">
          <CardHeader>
            <CardTitle>{skill ? 'Resume and photo' : 'Your proof'}</CardTitle>
            <CardDescription>
              {skill
                ? 'Add your resume and a profile picture for the reviewers. Extra documents are welcome.'
                : 'Upload documents that show your work, or give a portfolio URL in your details.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            {(needsResume || needsPicture) && (
              <div className="grid gap-4 sm:grid-cols-2">
                {needsResume && (
                  <SingleFile
                    kind="resume"
                    label="Resume"
                    hint="PDF, DOC or DOCX · up to 10 MB"
                    picked={resume}
                    disabled={uploading}
                    onPick={(f) => addFiles([f], 'resume')}
                    onRemove={remove}
                  />
                )}
                {needsPicture && (
                  <SingleFile
                    kind="profilePic"
                    label="Profile picture"
                    hint="JPG or PNG · up to 10 MB"
                    picked={picture}
                    preview={pictureURL}
                    disabled={uploading}
                    onPick={(f) => addFiles([f], 'profilePic')}
                    onRemove={remove}
                  />
                )}
              </div>
            )}

            <div className="space-y-2">
              <div className="flex items-baseline justify-between gap-2">
                <Label htmlFor="proof-input">{skill ? 'Additional documents' : 'Proof files'}</Label>
                <span className="shrink-0 whitespace-nowrap text-xs text-muted-foreground" data-testid="proof-count">
                  {proofs.length} / {limits.maxProofFiles}
                </span>
              </div>
              <div
                data-testid="dropzone"
                onDragOver={(e) => {
                  e.preventDefault();
                  if (!uploading) setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
                // not a role=button wrapping the input (nested interactive): the file input
                // itself takes the focus and the keyboard (its label is "Proof files");
                // a click anywhere on the zone opens it too
                onClick={() => !uploading && proofInput.current?.click()}
                className={cn(
                  'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  dragging ? 'border-primary bg-primary/5' : 'border-input hover:border-primary/60 hover:bg-muted/40',
                  uploading && 'cursor-not-allowed opacity-60',
                )}
              >
                <UploadCloud className={cn('h-8 w-8', dragging ? 'text-primary' : 'text-muted-foreground')} aria-hidden="true" />
                <p className="text-sm">
                  <span className="font-medium text-primary">Choose files</span> or drag and drop them here
                </p>
                <p id="proof-hint" className="text-xs text-muted-foreground">PDF, DOC, DOCX, JPG, JPEG or PNG · up to 10 MB each · at most {limits.maxProofFiles} files</p>
                <input
                  ref={proofInput}
                  id="proof-input"
                  data-testid="proof-input"
                  type="file"
                  multiple
                  accept={ACCEPT.proof}
                  className="sr-only"
                  aria-describedby="proof-hint"
                  onClick={(e) => e.stopPropagation()}
                  onChange={(e) => {
                    if (e.target.files) void addFiles(e.target.files, 'proof');
                    e.target.value = '';
                  }}
                />
              </div>
              {listError && (
                <p role="alert" className="flex items-center gap-1.5 text-sm text-destructive">
                  <AlertCircle className="h-4 w-4" aria-hidden="true" /> {listError}
                </p>
              )}
              {proofs.length > 0 && (
                <ul className="divide-y rounded-xl border" data-testid="file-list">
                  {proofs.map((f) => (
                    <FileRow key={f.id} f={f} uploading={uploading} onRemove={remove} />
                  ))}
                </ul>
              )}
            </div>

            <div className="space-y-2">
              <div className="flex items-baseline justify-between gap-2">
                <Label htmlFor="app-description">Tell the reviewers about your experience</Label>
                <span className={cn('shrink-0 whitespace-nowrap text-xs tabular-nums', description.length > MAX_DESCRIPTION ? 'text-destructive' : 'text-muted-foreground')}>
                  {description.length} / {MAX_DESCRIPTION}
                </span>
              </div>
              <Textarea
                id="app-description"
                data-testid="description"
                rows={5}
                value={description}
                disabled={uploading}
                onChange={(e) => setDescription(e.target.value)}
                placeholder={skill ? 'Projects, roles and results that show this skill (optional).' : 'What these documents show, and your part in the work (optional).'}
              />
            </div>

            <div className="space-y-3 border-t pt-5">
              {missing.length > 0 && (
                <div role="status" data-testid="fill-details" className="flex items-start gap-2 rounded-lg border border-warning/60 bg-warning/10 px-3 py-2.5 text-sm">
                  <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                  <div>
                    <p className="font-medium">Fill up your details to proceed</p>
                    <p className="text-muted-foreground">Still needed: {missing.join('; ')}.</p>
                    {missingProfile.length > 0 && !editing && (
                      <button type="button" className="mt-1 font-medium text-primary underline-offset-4 hover:underline" onClick={() => startEdit(missingProfile[0].key)}>
                        Edit your details
                      </button>
                    )}
                  </div>
                </div>
              )}
              {missing.length === 0 && editing && <p className="text-sm text-muted-foreground">Save or cancel your profile changes to continue.</p>}
              {missing.length === 0 && !editing && badFiles > 0 && (
                <p className="text-sm text-destructive">Remove the {badFiles === 1 ? 'file' : 'files'} marked in red to continue.</p>
              )}
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
                <p className="text-sm text-muted-foreground">
                  {badge.price > 0 ? (
                    <>
                      Next: payment of <span className="font-medium text-foreground">{money(badge.price)}</span>, then review.
                    </>
                  ) : (
                    'This badge is free: your application goes straight to review.'
                  )}
                </p>
                <Button size="lg" onClick={submit} disabled={blocked || uploading} data-testid="submit-application" className="sm:min-w-52">
                  {uploading ? (
                    <>
                      <Loader2 className="animate-spin" /> Uploading… {Math.round(overall * 100)}%
                    </>
                  ) : (
                    <>
                      <Send /> Submit Application
                    </>
                  )}
                </Button>
              </div>
              {uploading && (
                <div className="h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(overall * 100)}%` }} />
                </div>
              )}
            </div>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
