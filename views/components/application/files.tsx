// The application form's file rows: a picked file with its progress or error, and the
// single-file pickers (resume, profile picture).
import { useRef } from 'react';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import FileImage from 'lucide-react/icons/file-image';
import FileText from 'lucide-react/icons/file-text';
import UploadCloud from 'lucide-react/icons/cloud-upload';
import X from 'lucide-react/icons/x';
import { cn } from '../../lib/cn';
import { Button, Label } from '../ui';
import { ACCEPT, Kind, Picked, TYPES, ext } from './model';

import { fileSize } from '../../lib/format';
export function Progress({ value }: { value: number }) {
  return (
    <div className="mt-1.5 h-1 overflow-hidden rounded-full bg-muted" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(value * 100)}>
      <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(value * 100)}%` }} />
    </div>
  );
}

export function FileRow({ f, uploading, onRemove }: { f: Picked; uploading: boolean; onRemove: (id: number) => void }) {
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

export function SingleFile({
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
