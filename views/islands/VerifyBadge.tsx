// The verify page's form and result. The server renders it with the result already in
// place (auto-verify when the address carries an id); after hydration a visitor can type
// another id: the island asks GET /verify/badge/{id}, shows the answer and moves the
// address to /verify/{id} so it can be shared. Without JavaScript the form is a plain GET
// to /verify-badge?id=…, answered by the server.
//
// A credential file (a baked badge PNG, a JWT, a JSON credential) can also be dropped on
// the page or chosen with the file input: the island posts it to POST /verify/file, which
// runs the same checks and says so when the file names an issuer we do not trust.
import { useEffect, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import CircleAlert from 'lucide-react/icons/circle-alert';
import Fingerprint from 'lucide-react/icons/fingerprint';
import FileUp from 'lucide-react/icons/file-up';
import Loader2 from 'lucide-react/icons/loader-circle';
import Search from 'lucide-react/icons/search';
import { Button, Card, Input, Label } from '../components/ui';
import { api, ApiError } from '../lib/api';
import { toastError } from '../lib/toast';
import { cn } from '../lib/cn';
import Ellipsis from '../components/Ellipsis';
import { MSG_FAILED, MSG_NOT_VERIFIED, type VerifyResult } from '../components/verify/model';
import { deferred } from '../lib/deferred';

// the result's cards (the larger half of the island's code): rendered by the server with
// the form, their code fetched apart and hydrated when it arrives (views/lib/deferred.tsx)
const resultModule = () => import('../components/verify/ResultView');
const ResultView = deferred(() => resultModule().then((m) => m.ResultView));
const NotFound = deferred(() => resultModule().then((m) => m.NotFound));

export type VerifyBadgeProps = {
  query: string;
  result: VerifyResult | null;
  notFound: boolean;
  rateLimited: boolean;
  error: string;
  /** The viewer holds the credential of `result` (the server says so; a visitor never does). */
  holder?: boolean;
};

type State = { query: string; result: VerifyResult | null; notFound: boolean; error: string; fileError?: string; fileName?: string };

/** The largest file the server looks at (MaxFileBytes). */
const MAX_FILE_BYTES = 512 * 1024;

export default function VerifyBadge(p: VerifyBadgeProps) {
  const [value, setValue] = useState(p.query);
  const [state, setState] = useState<State>({ query: p.query, result: p.result, notFound: p.notFound, error: p.error });
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const seq = useRef(0);
  // the one result the viewer is known to hold: the page's own
  const heldId = p.holder && p.result ? p.result.verificationId : '';

  async function check(id: string, push: boolean) {
    const n = ++seq.current;
    setBusy(true);
    setHint('');
    let shown = id;
    try {
      const r = await api<VerifyResult>(`/verify/badge/${encodeURIComponent(id)}`, { timeoutMs: 15000 });
      if (n !== seq.current) return;
      setState({ query: id, result: r, notFound: false, error: '' });
      shown = r.verificationId || id;
      setValue(shown);
    } catch (e) {
      if (n !== seq.current) return;
      if (e instanceof ApiError && e.status === 404) setState({ query: id, result: null, notFound: true, error: '' });
      else if (e instanceof ApiError && e.status === 429) setState({ query: id, result: null, notFound: false, error: e.message });
      else {
        setState({ query: id, result: null, notFound: false, error: MSG_FAILED });
        toastError(e instanceof ApiError && e.status === 0 ? e.message : MSG_NOT_VERIFIED, MSG_FAILED);
      }
    } finally {
      if (n === seq.current) setBusy(false);
    }
    if (push) {
      const url = `/verify/${encodeURIComponent(shown)}`;
      if (location.pathname + location.search !== url) history.pushState({ id }, '', url);
    }
    requestAnimationFrame(() => resultRef.current?.focus());
  }

  async function checkFile(file: File) {
    const n = ++seq.current;
    setHint('');
    if (file.size > MAX_FILE_BYTES) {
      setState({ query: '', result: null, notFound: false, error: '', fileError: 'The file is too large: a credential file is at most 512 KB.', fileName: file.name });
      requestAnimationFrame(() => resultRef.current?.focus());
      return;
    }
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const r = await api<VerifyResult>('/verify/file', { form, timeoutMs: 20000 });
      if (n !== seq.current) return;
      setState({ query: '', result: r, notFound: false, error: '', fileName: file.name });
    } catch (e) {
      if (n !== seq.current) return;
      const msg = e instanceof ApiError && e.message ? e.message : MSG_NOT_VERIFIED;
      setState({ query: '', result: null, notFound: false, error: '', fileError: msg, fileName: file.name });
    } finally {
      if (n === seq.current) setBusy(false);
      if (fileRef.current) fileRef.current.value = ''; // choosing the same file again checks it again
    }
    requestAnimationFrame(() => resultRef.current?.focus());
  }

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    if (f) void checkFile(f);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    const f = e.dataTransfer.files?.[0];
    if (f) void checkFile(f);
  }

  function onDragOver(e: DragEvent<HTMLDivElement>) {
    if (!Array.from(e.dataTransfer.types || []).includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  }

  // back and forward between verified ids
  useEffect(() => {
    const onPop = () => {
      const m = /^\/verify\/([^/]+)$/.exec(location.pathname);
      const id = m ? decodeURIComponent(m[1]) : new URLSearchParams(location.search).get('id') || '';
      setValue(id);
      if (id) void check(id, false);
      else setState({ query: '', result: null, notFound: false, error: '' });
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const id = value.trim();
    if (!id) {
      setHint('Please enter a verification ID.');
      return;
    }
    void check(id, true);
  }

  // a checked id's result leads (on a phone the badge, holder and verdict come first); a
  // file's follows the drop zone it came from
  const resultFirst = !!state.result && !state.fileName && !state.fileError;
  const form = (
    <Card className="p-5 sm:p-6">
      <form method="get" action="/verify-badge" onSubmit={onSubmit} className="space-y-3" role="search" aria-label="Verify a badge">
        <Label htmlFor="verification-id">Verification ID</Label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="relative flex-1">
            <Fingerprint className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              id="verification-id"
              name="id"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              placeholder="MM-7K2D-9QXA-4PZM or a shared verification link"
              autoComplete="off"
              spellCheck={false}
              maxLength={300}
              className="pl-9 font-mono"
              aria-describedby="verification-id-help"
              data-testid="verify-input"
            />
          </div>
          <Button type="submit" disabled={busy} className="sm:w-36" data-testid="verify-submit">
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Search aria-hidden="true" />}
            {busy ? 'Verifying…' : 'Verify'}
          </Button>
        </div>
        <p id="verification-id-help" className="text-xs text-muted-foreground">
          {hint ? (
            <span className="font-medium text-destructive">{hint}</span>
          ) : (
            <>
              Verification IDs are not case-sensitive. Shared links (<Ellipsis />
              /verify/
              <Ellipsis />) can be pasted as they are.
            </>
          )}
        </p>
      </form>

      <div className="my-5 flex items-center gap-3 text-xs uppercase tracking-wide text-muted-foreground" aria-hidden="true">
        <span className="h-px flex-1 bg-border" /> or check a file <span className="h-px flex-1 bg-border" />
      </div>

      <div
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="verify-dropzone"
        data-dragging={dragging}
      >
        <input
          ref={fileRef}
          id="credential-file"
          type="file"
          accept=".png,.jwt,.json,.jsonld,.txt,image/png,application/json,application/ld+json,text/plain"
          onChange={onFile}
          disabled={busy}
          className="peer sr-only"
          aria-describedby="credential-file-help"
          data-testid="verify-file"
        />
        <label
          htmlFor="credential-file"
          className={cn(
            'flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors hover:border-primary/60 hover:bg-accent/40',
            'peer-focus-visible:border-primary peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 ring-offset-background',
            'peer-disabled:cursor-wait peer-disabled:opacity-60',
            dragging ? 'border-primary bg-primary/5' : 'border-input',
          )}
        >
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-primary/10 text-primary">
            {busy ? <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" /> : <FileUp className="h-5 w-5" aria-hidden="true" />}
          </span>
          <span className="text-sm font-medium">
            Drop a credential file here or <span className="text-primary underline underline-offset-2">choose a file</span>
          </span>
        </label>
        <p id="credential-file-help" className="mt-2 text-xs text-muted-foreground">
          A badge image (PNG) with its credential baked in, a signed credential (JWT) or a JSON credential, up to 512 KB. Only what the file
          contains is checked; nothing is stored.
        </p>
      </div>
    </Card>
  );
  const result = (
    <div ref={resultRef} tabIndex={-1} aria-live="polite" className="outline-none" data-testid="verify-result" data-state={stateName(state)}>
      {state.fileError ? (
        <Card className="flex items-start gap-3 border-destructive/40 bg-destructive/5 p-5" role="alert" data-testid="verify-file-error">
          <CircleAlert className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-semibold">This file could not be checked</p>
            <p className="mt-1 text-sm text-muted-foreground">{state.fileError}</p>
            {state.fileName && <p className="mt-1 break-all text-xs text-muted-foreground">File: {state.fileName}</p>}
          </div>
        </Card>
      ) : state.result ? (
        <ResultView r={state.result} fileName={state.fileName} holder={!!heldId && !state.fileName && state.result.verificationId === heldId} />
      ) : state.notFound ? (
        <NotFound query={state.query} />
      ) : state.error ? (
        <Card className="flex items-start gap-3 border-warning/50 bg-warning/10 p-5" role="alert">
          <CircleAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-semibold">{state.error === MSG_FAILED ? MSG_FAILED : 'Please wait a moment'}</p>
            <p className="mt-1 text-sm text-muted-foreground">{state.error === MSG_FAILED ? MSG_NOT_VERIFIED + ' Please try again.' : state.error}</p>
          </div>
        </Card>
      ) : null}
    </div>
  );
  return (
    <div className="space-y-6" data-result-first={resultFirst || undefined}>
      {resultFirst ? result : form}
      {resultFirst ? form : result}
    </div>
  );
}

function stateName(s: State): string {
  if (s.fileError) return 'file-error';
  if (s.result) return s.result.status;
  if (s.notFound) return 'not-found';
  if (s.error) return 'error';
  return 'empty';
}
