// Shared pieces of the account screens (login, signup, reset password, profiles): the
// password field, the auth page frame; the user's JSON shape and copy-to-clipboard are in
// user.ts (re-exported here).
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Eye from 'lucide-react/icons/eye';
import EyeOff from 'lucide-react/icons/eye-off';
import Share2 from 'lucide-react/icons/share-2';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { cn } from '../lib/cn';
import { Input } from './ui';

export { copyText, fromApi, type ApiUser, type BadgeGrant, type EarnedBadge, type User } from './user';

/** A failed plain form post's message (rendered by the server, announced on load). */
export function FormError({ message }: { message: string }) {
  return (
    <div role="alert" className="mb-4 rounded-lg border border-destructive/50 bg-destructive/10 px-4 py-3 text-sm text-foreground" data-testid="form-error">
      {message}
    </div>
  );
}

/** The same-site path to go to after signing in: a local path, else '/'. */
export function safeNext(next: string | null | undefined): string {
  if (!next || next[0] !== '/' || next.startsWith('//') || next.startsWith('/\\') || /[\\\r\n\t]/.test(next)) return '/';
  const path = next.split(/[?#]/)[0];
  if (path === '/login' || path === '/signup') return '/';
  return next;
}

/** A password input with a show/hide toggle. */
export function PasswordInput({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <Input {...rest} type={shown ? 'text' : 'password'} className={cn('pr-10', className)} />
      <button
        type="button"
        onClick={() => setShown(!shown)}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={shown ? 'Hide password' : 'Show password'}
        aria-pressed={shown}
      >
        {shown ? <EyeOff className="h-4 w-4" /> : <Eye className="h-4 w-4" />}
      </button>
    </div>
  );
}

/** The frame of the login, signup and reset screens: a brand panel beside the form. */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 sm:px-6 sm:py-16 lg:grid-cols-2 lg:items-center lg:gap-12 lg:px-8">
      <section aria-label="Why Meritmark" className="hidden rounded-2xl bg-gradient-to-br from-indigo-600 to-indigo-800 p-10 text-white shadow-lg lg:block dark:from-indigo-700 dark:to-indigo-950 dark:ring-1 dark:ring-white/10">
        <div className="flex h-11 w-11 items-center justify-center rounded-xl bg-white/15">
          <Award className="h-6 w-6" aria-hidden="true" />
        </div>
        <h2 className="mt-6 text-2xl font-bold leading-tight">Credentials that prove themselves</h2>
        <p className="mt-3 text-white/85">Earn a badge by passing a quiz or showing your work, and share a link anyone can verify in one click.</p>
        <ul className="mt-8 space-y-4 text-sm">
          <li className="flex gap-3"><ShieldCheck className="h-5 w-5 shrink-0" aria-hidden="true" /> Every badge is reviewed and signed, so employers can trust it.</li>
          <li className="flex gap-3"><BadgeCheck className="h-5 w-5 shrink-0" aria-hidden="true" /> A public verification page for each credential you hold.</li>
          <li className="flex gap-3"><Share2 className="h-5 w-5 shrink-0" aria-hidden="true" /> Share to LinkedIn, your portfolio or your profile page.</li>
        </ul>
      </section>
      <div className="mx-auto w-full max-w-md">
        <div className="mb-6 text-center lg:text-left">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          <p className="mt-2 text-muted-foreground">{subtitle}</p>
        </div>
        {children}
      </div>
    </div>
  );
}
