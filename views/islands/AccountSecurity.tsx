import { useState } from 'react';
import { LoaderCircle, MailWarning, Send } from 'lucide-react';
import { api, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui';

export type AccountSecurityProps = { email: string; emailVerified: boolean };

/** The profile's account security section: e-mail confirmation. */
export default function AccountSecurity({ email, emailVerified }: AccountSecurityProps) {
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      const r = await api<{ msg: string }>('/auth/resend-verification', { method: 'POST' });
      toast({ title: 'Confirmation sent', description: r.msg });
    } catch (err) {
      toastError(errorMessage(err, 'Could not send the confirmation email.'));
    } finally {
      setBusy(false);
    }
  };
  if (emailVerified) return null;
  return (
    <Card className="mt-6 border-amber-500/40" data-testid="email-unverified">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MailWarning className="h-5 w-5 text-amber-600 dark:text-amber-400" aria-hidden="true" /> Confirm your email address
        </CardTitle>
        <CardDescription>
          We sent a link to <span className="font-medium text-foreground">{email}</span>. You can take quizzes and apply now; badges approved for you are
          issued once you open the link.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" onClick={resend} disabled={busy} data-testid="resend-verification">
          {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          Send a new link
        </Button>
      </CardContent>
    </Card>
  );
}
