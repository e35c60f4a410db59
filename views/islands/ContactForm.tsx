import { useState, type FormEvent } from 'react';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import Send from 'lucide-react/icons/send';
import { Button, Input, Label, Textarea } from '../components/ui';
import { cn } from '../lib/cn';

type Field = 'name' | 'email' | 'subject' | 'message';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

const FIELDS: Field[] = ['name', 'email', 'subject', 'message'];
const invalidRing = 'aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The inline messages: every field is required, the e-mail must look like one. */
export function validate(v: Values): Errors {
  const e: Errors = {};
  if (!v.name.trim()) e.name = 'Please enter your name.';
  if (!v.email.trim()) e.email = 'Please enter your email address.';
  else if (!EMAIL.test(v.email.trim())) e.email = 'Please enter a valid email address.';
  if (!v.subject.trim()) e.subject = 'Please enter a subject.';
  if (!v.message.trim()) e.message = 'Please enter a message.';
  return e;
}

/** The prefilled message (RFC 6068: percent-encoded, CRLF line breaks). */
export function mailtoURL(to: string, v: Values): string {
  const body = `${v.message.trim()}\r\n\r\n--\r\n${v.name.trim()}\r\n${v.email.trim()}`;
  return `mailto:${to}?subject=${encodeURIComponent(v.subject.trim())}&body=${encodeURIComponent(body)}`;
}

/** Hands the message to the visitor's mail client; nothing is sent to our server. */
function openMailClient(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.click();
}

function read(form: HTMLFormElement): Values {
  const d = new FormData(form);
  const s = (k: Field) => String(d.get(k) ?? '');
  return { name: s('name'), email: s('email'), subject: s('subject'), message: s('message') };
}

/** What the server answers to the form posted without JavaScript (POST /contact): the
 * typed values, their messages, and the prefilled mailto link when they are valid. */
export type ContactPosted = { values: Values; errors: Errors; mailto: string };

/** The contact form: name, email, subject and message, all required; opens the mail client.
 * Without JavaScript it is posted (never sent as a GET: the message stays out of the
 * address) to /contact, which checks it and answers with the mailto link to follow. */
export default function ContactForm({ supportEmail, posted }: { supportEmail: string; posted?: ContactPosted }) {
  const [errors, setErrors] = useState<Errors>(posted?.errors ?? {});
  const [sentURL, setSentURL] = useState(posted?.mailto ?? '');
  // the server's answer cannot open the mail app: the visitor follows the link
  const [fromServer, setFromServer] = useState(!!posted?.mailto);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = read(form);
    const errs = validate(v);
    setErrors(errs);
    const first = FIELDS.find((f) => errs[f]);
    if (first) {
      setSentURL('');
      (form.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    const url = mailtoURL(supportEmail, v);
    setSentURL(url);
    setFromServer(false);
    openMailClient(url);
  };

  // once a field has an error, re-check it as the visitor types so the message goes away
  const recheck = (f: Field, form: HTMLFormElement | null) => {
    if (!errors[f] || !form) return;
    const msg = validate(read(form))[f];
    if (msg !== errors[f]) setErrors({ ...errors, [f]: msg });
  };

  const field = (f: Field) => ({
    id: `contact-${f}`,
    name: f,
    defaultValue: posted?.values[f] ?? '',
    required: true,
    'aria-invalid': errors[f] ? true : undefined,
    'aria-describedby': errors[f] ? `contact-${f}-error` : undefined,
    className: invalidRing,
    onChange: (e: { currentTarget: { form: HTMLFormElement | null } }) => recheck(f, e.currentTarget.form),
  });
  const error = (f: Field) =>
    errors[f] ? (
      <p id={`contact-${f}-error`} className="text-sm font-medium text-destructive" data-testid={`error-${f}`}>
        {errors[f]}
      </p>
    ) : null;

  return (
    <form noValidate method="post" action="/contact" onSubmit={submit} className="grid gap-5" aria-label="Contact form" data-testid="contact-form">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="contact-name">Name</Label>
          <Input {...field('name')} autoComplete="name" placeholder="Jane Doe" />
          {error('name')}
        </div>
        <div className="grid gap-2">
          <Label htmlFor="contact-email">Email</Label>
          <Input {...field('email')} type="email" autoComplete="email" placeholder="jane@company.com" />
          {error('email')}
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="contact-subject">Subject</Label>
        <Input {...field('subject')} placeholder="How can we help?" />
        {error('subject')}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="contact-message">Message</Label>
        <Textarea {...field('message')} rows={6} placeholder="Tell us a little about your question" className={cn('min-h-36', invalidRing)} />
        {error('message')}
      </div>
      {sentURL && (
        <div role="status" className="flex gap-3 rounded-lg border border-success/30 bg-success/10 p-4 text-sm [overflow-wrap:anywhere]" data-testid="contact-sent">
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-success" />
          <div>
            <p className="font-semibold">{fromServer ? 'Your message is ready to send.' : 'Your email app should now open with your message.'}</p>
            <p className="mt-1 text-muted-foreground">
              {fromServer ? '' : 'Nothing happened? '}
              <a href={sentURL} className="font-medium text-primary underline-offset-4 hover:underline" data-testid="contact-mailto">
                {fromServer ? 'Open it in your email app' : 'Open it again'}
              </a>{' '}
              or write to <span className="font-medium text-foreground">{supportEmail}</span>.
            </p>
          </div>
        </div>
      )}
      <div className="flex flex-col-reverse items-start justify-between gap-4 sm:flex-row sm:items-center">
        <p className="text-xs text-muted-foreground">Sending opens your own email app; nothing is stored on our servers.</p>
        <Button type="submit" size="lg" className="w-full sm:w-auto" data-testid="contact-submit">
          <Send /> Send Message
        </Button>
      </div>
    </form>
  );
}
