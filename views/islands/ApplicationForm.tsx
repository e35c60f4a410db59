import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import {
  AlertCircle, CheckCircle2, FileImage, FileText, Info, Loader2, Lock, Pencil, Save, Send, Trophy, UploadCloud, UserRound, X,
} from 'lucide-react';
import { api, API_BASE, errorMessage } from '../lib/api';
import { toast } from '../lib/toast';
import { cn } from '../lib/cn';
import { date, money } from '../lib/format';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label, Textarea } from '../components/ui';

export type Profile = { name: string; email: string; position: string; linkedin: string; portfolio: string };

export type ApplicationFormProps = {
  badge: { _id: string; name: string; type: string; price: number; requiresResume: boolean };
  profile: Profile;
  limits: { maxFileBytes: number; maxProofFiles: number; extensions: string[] };
  /** The server's unused passing attempt (skill badges). */
  attempt: { id: string; score: number; correctAnswers: number; total: number; passingScore: number; timeSpent: number } | null;
  /** The previous application, when it was rejected. */
  rejected: { reason: string; reviewedAt: string | null } | null;
};

type Kind = 'proof' | 'resume' | 'profilePic';

type Picked = {
  id: number;
  file: File;
  kind: Kind;
  error: string | null;
  progress: number; // 0..1 while uploading
};

type QuizResult = { score: number; passed: boolean; correctAnswers: number; total: number; timeSpent: number; attemptId?: string; fromQuiz?: boolean };

const MAX_DESCRIPTION = 5000;

// The same rules as the server (app/application CheckFile): extension per kind, size,
// and the file's first bytes.
const TYPES: Record<string, { label: string; magic: number[][]; image: boolean }> = {
  '.pdf': { label: 'PDF', magic: [[0x25, 0x50, 0x44, 0x46, 0x2d]], image: false },
  '.doc': { label: 'DOC', magic: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]], image: false },
  '.docx': { label: 'DOCX', magic: [[0x50, 0x4b, 0x03, 0x04]], image: false },
  '.jpg': { label: 'JPEG', magic: [[0xff, 0xd8, 0xff]], image: true },
  '.jpeg': { label: 'JPEG', magic: [[0xff, 0xd8, 0xff]], image: true },
  '.png': { label: 'PNG', magic: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]], image: true },
};

const ACCEPT: Record<Kind, string> = {
  proof: '.pdf,.doc,.docx,.jpg,.jpeg,.png',
  resume: '.pdf,.doc,.docx',
  profilePic: '.jpg,.jpeg,.png',
};

function ext(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i).toLowerCase() : '';
}

/** "2.4 MB", "310 KB", "12 B". */
export function fileSize(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

function duration(seconds: number) {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

function pct(score: number) {
  return Math.round(score * 10) / 10;
}

/** Checks a file as the server will; answers the message or null. */
async function checkFile(file: File, kind: Kind, maxBytes: number): Promise<string | null> {
  const q = `"${file.name}"`;
  if (file.size > maxBytes) return `${q} is larger than 10 MB. Each file can be at most 10 MB.`;
  const t = TYPES[ext(file.name)];
  if (kind === 'resume' && (!t || t.image)) return `Your resume ${q} must be a PDF, DOC or DOCX file.`;
  if (kind === 'profilePic' && (!t || !t.image)) return `Your profile picture ${q} must be a JPG or PNG image.`;
  if (!t) return `${q} is not an accepted file type. Upload PDF, DOC, DOCX, JPG, JPEG or PNG files.`;
  if (file.size === 0) return `${q} is empty.`;
  try {
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    const ok = t.magic.some((m) => m.every((b, i) => head[i] === b));
    if (!ok) return `${q} is not a real ${t.label} file: its content does not match its extension.`;
  } catch {
    // unreadable here: the server decides
  }
  return null;
}

const REQUIRED: { key: keyof Profile; label: string }[] = [
  { key: 'name', label: 'full name' },
  { key: 'email', label: 'email' },
  { key: 'position', label: 'position' },
  { key: 'linkedin', label: 'LinkedIn' },
];

let seq = 0;

export default function ApplicationForm({ badge, profile: initial, limits, attempt, rejected }: ApplicationFormProps) {
  const skill = badge.type === 'skill';
  const needsResume = skill || badge.requiresResume;
  const needsPicture = skill;

  // ---- profile card ----
  const [profile, setProfile] = useState<Profile>(initial);
  const [draft, setDraft] = useState<Profile>(initial);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  const startEdit = (focus?: keyof Profile) => {
    setDraft(profile);
    setEditing(true);
    setTimeout(() => document.getElementById(`pf-${focus || 'name'}`)?.focus(), 0);
  };
  const cancelEdit = () => {
    setDraft(profile);
    setEditing(false);
  };
  const saveProfile = async () => {
    setSaving(true);
    try {
      const res = await api<{ msg?: string; user?: Partial<Profile> }>('/users/profile', {
        method: 'POST',
        body: { name: draft.name, email: profile.email, position: draft.position, linkedin: draft.linkedin, portfolio: draft.portfolio },
      });
      const u = res?.user || {};
      const next: Profile = {
        name: u.name ?? draft.name,
        email: profile.email,
        position: u.position ?? draft.position,
        linkedin: u.linkedin ?? draft.linkedin,
        portfolio: u.portfolio ?? draft.portfolio,
      };
      setProfile(next);
      setDraft(next);
      setEditing(false);
      toast({ title: 'Profile Updated', description: res?.msg || 'Your details have been saved.', variant: 'success' });
    } catch (e) {
      toast({ title: 'Profile Update Failed', description: errorMessage(e, 'Failed to update profile. Please try again.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

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
  const values = editing ? draft : profile;
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
            Your previous application{rejected.reviewedAt ? ` (reviewed ${date(rejected.reviewedAt)})` : ''} was not approved
            {rejected.reason ? <>: <span className="font-medium">{rejected.reason}</span></> : '.'} You can apply again.
          </p>
        </div>
      )}

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        {/* profile card */}
        <Card className="min-w-0 lg:col-span-2" data-testid="profile-card">
          <div className="flex items-start justify-between gap-3 p-6">
            <div className="space-y-1.5">
              <CardTitle className="flex items-center gap-2">
                <UserRound className="h-5 w-5 text-primary" aria-hidden="true" /> Your details
              </CardTitle>
              <CardDescription>Reviewers see these with your application.</CardDescription>
            </div>
            {!editing && (
              <Button variant="outline" size="sm" onClick={() => startEdit()} disabled={uploading} data-testid="profile-edit">
                <Pencil /> Edit
              </Button>
            )}
          </div>
          <CardContent className="space-y-4">
            <ProfileField label="Full name" required missing={!values.name.trim()}>
              <Input
                id="pf-name"
                value={values.name}
                readOnly={!editing}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                autoComplete="name"
                maxLength={100}
              />
            </ProfileField>
            <ProfileField label="Email" hint="Your sign-in address; it cannot be changed here." icon={<Lock className="h-3 w-3" aria-hidden="true" />}>
              <Input id="pf-email" value={values.email} readOnly aria-readonly="true" />
            </ProfileField>
            <ProfileField label="Position" required missing={!values.position.trim()}>
              <Input
                id="pf-position"
                value={values.position}
                readOnly={!editing}
                onChange={(e) => setDraft({ ...draft, position: e.target.value })}
                placeholder={editing ? 'e.g. Senior Frontend Engineer' : ''}
                maxLength={120}
              />
            </ProfileField>
            <ProfileField label="LinkedIn" required missing={!values.linkedin.trim()}>
              <Input
                id="pf-linkedin"
                type="url"
                value={values.linkedin}
                readOnly={!editing}
                onChange={(e) => setDraft({ ...draft, linkedin: e.target.value })}
                placeholder={editing ? 'https://linkedin.com/in/your-name' : ''}
              />
            </ProfileField>
            <ProfileField label="Portfolio" hint={skill ? 'Optional.' : 'Optional when you upload proof files.'}>
              <Input
                id="pf-portfolio"
                type="url"
                value={values.portfolio}
                readOnly={!editing}
                onChange={(e) => setDraft({ ...draft, portfolio: e.target.value })}
                placeholder={editing ? 'https://your-site.com' : ''}
              />
            </ProfileField>
            {editing && (
              <div className="flex gap-2 pt-1">
                <Button onClick={saveProfile} disabled={saving} data-testid="profile-save">
                  {saving ? <Loader2 className="animate-spin" /> : <Save />} Save
                </Button>
                <Button variant="ghost" onClick={cancelEdit} disabled={saving} data-testid="profile-cancel">
                  Cancel
                </Button>
              </div>
            )}
          </CardContent>
        </Card>

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

function ProfileField({ label, required, missing, hint, icon, children }: { label: string; required?: boolean; missing?: boolean; hint?: string; icon?: ReactNode; children: ReactNode }) {
  const id = 'pf-' + label.toLowerCase().split(' ').pop();
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id} className="flex items-center gap-1.5">
        {label}
        {required && <span className="text-destructive" aria-hidden="true">*</span>}
        {icon}
        {missing && <span className="ml-auto text-xs font-normal text-destructive">Required</span>}
      </Label>
      <div className={cn(missing && '[&_input]:border-destructive/70')}>{children}</div>
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

function Progress({ value }: { value: number }) {
  return (
    <div className="mt-1.5 h-1 overflow-hidden rounded-full bg-muted" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(value * 100)}>
      <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(value * 100)}%` }} />
    </div>
  );
}

function FileRow({ f, uploading, onRemove }: { f: Picked; uploading: boolean; onRemove: (id: number) => void }) {
  const Icon = TYPES[ext(f.file.name)]?.image ? FileImage : FileText;
  return (
    <li className="flex items-start gap-3 p-3" data-testid="file-row" data-error={f.error ? 'true' : 'false'}>
      <span className={cn('mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-lg', f.error ? 'bg-destructive/10 text-destructive' : 'bg-primary/10 text-primary')}>
        <Icon className="h-4 w-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          <p className="truncate text-sm font-medium" title={f.file.name} data-testid="file-name">
            {f.file.name}
          </p>
          <span className="shrink-0 text-xs tabular-nums text-muted-foreground" data-testid="file-size">
            {fileSize(f.file.size)}
          </span>
        </div>
        {f.error ? (
          <p className="mt-0.5 text-xs text-destructive" data-testid="file-error">
            {f.error}
          </p>
        ) : uploading ? (
          <Progress value={f.progress} />
        ) : f.progress >= 1 ? (
          <p className="mt-0.5 flex items-center gap-1 text-xs text-success">
            <CheckCircle2 className="h-3 w-3" aria-hidden="true" /> Uploaded
          </p>
        ) : (
          <p className="mt-0.5 text-xs text-muted-foreground">Ready to upload</p>
        )}
      </div>
      <Button variant="ghost" size="icon" className="h-8 w-8 shrink-0" onClick={() => onRemove(f.id)} disabled={uploading} aria-label={`Remove ${f.file.name}`} data-testid="file-remove">
        <X />
      </Button>
    </li>
  );
}

function SingleFile({
  kind, label, hint, picked, preview, disabled, onPick, onRemove,
}: {
  kind: Kind;
  label: string;
  hint: string;
  picked: Picked | null;
  preview?: string | null;
  disabled: boolean;
  onPick: (f: File) => void;
  onRemove: (id: number) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const id = `${kind}-input`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id} className="flex items-center gap-1.5">
        {label} <span className="text-destructive" aria-hidden="true">*</span>
      </Label>
      <div className={cn('rounded-xl border p-3', picked?.error && 'border-destructive/60')}>
        {picked ? (
          <div className="flex items-start gap-3" data-testid={`${kind}-picked`}>
            {preview ? (
              <img src={preview} alt="" className="h-10 w-10 shrink-0 rounded-full object-cover ring-1 ring-border" />
            ) : (
              <span className={cn('flex h-10 w-10 shrink-0 items-center justify-center rounded-lg', picked.error ? 'bg-destructive/10 text-destructive' : 'bg-primary/10 text-primary')}>
                {kind === 'profilePic' ? <FileImage className="h-4 w-4" /> : <FileText className="h-4 w-4" />}
              </span>
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium" title={picked.file.name}>
                {picked.file.name}
              </p>
              <p className="text-xs text-muted-foreground">{fileSize(picked.file.size)}</p>
              {picked.error ? (
                <p className="mt-0.5 text-xs text-destructive" data-testid="file-error">
                  {picked.error}
                </p>
              ) : disabled ? (
                <Progress value={picked.progress} />
              ) : null}
            </div>
            <Button variant="ghost" size="icon" className="h-8 w-8 shrink-0" onClick={() => onRemove(picked.id)} disabled={disabled} aria-label={`Remove ${picked.file.name}`}>
              <X />
            </Button>
          </div>
        ) : (
          <button
            type="button"
            disabled={disabled}
            onClick={() => input.current?.click()}
            className="flex w-full items-center gap-3 rounded-lg text-left text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
          >
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-muted text-muted-foreground">
              <UploadCloud className="h-4 w-4" aria-hidden="true" />
            </span>
            <span>
              <span className="block font-medium text-primary">Choose {kind === 'resume' ? 'a file' : 'an image'}</span>
              <span className="block text-xs text-muted-foreground">{hint}</span>
            </span>
          </button>
        )}
        <input
          ref={input}
          id={id}
          data-testid={id}
          type="file"
          accept={ACCEPT[kind]}
          className="sr-only"
          tabIndex={-1}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) onPick(f);
            e.target.value = '';
          }}
        />
      </div>
    </div>
  );
}
