// The holder's choice that their credentials name them (PUT /users/credential-name): an
// unhashed name IdentityObject beside the hashed e-mail address in the credentials signed
// from now on. The control says that credentials issued before keep what they say.
import { useState } from 'react';
import IdCard from 'lucide-react/icons/id-card';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';

export function CredentialName({ name, on: initial, onChange }: { name: string; on: boolean; onChange?: (on: boolean) => void }) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  // the box follows the click at once and goes back if the server refuses (a controlled box
  // that waited for the answer would spring back until then)
  const change = async (next: boolean) => {
    setOn(next);
    setBusy(true);
    try {
      const r = await api<{ msg: string; nameInCredentials: boolean }>('/users/credential-name', { method: 'PUT', body: { nameInCredentials: next } });
      setOn(r.nameInCredentials);
      onChange?.(r.nameInCredentials);
      toast({ title: r.nameInCredentials ? 'Your name will be shown' : 'Your name will not be shown', description: r.msg, variant: 'success' });
    } catch (e) {
      setOn(!next);
      toastError(errorMessage(e, 'Could not save the setting.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="lg:col-span-2" data-testid="credential-name">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <IdCard className="h-5 w-5 text-primary" aria-hidden="true" /> Name in credentials
        </CardTitle>
        <CardDescription>What wallets and verifiers read in your signed credentials.</CardDescription>
      </CardHeader>
      <CardContent>
        <label htmlFor="name-in-credentials" className="flex items-start gap-3 text-sm">
          <input
            id="name-in-credentials"
            type="checkbox"
            className="mt-0.5 h-4 w-4"
            checked={on}
            disabled={busy}
            onChange={(e) => change(e.target.checked)}
            aria-describedby="name-in-credentials-note"
          />
          <span>Show my name in my credentials</span>
        </label>
        <p id="name-in-credentials-note" className="mt-2 text-xs text-muted-foreground">
          Applies to credentials issued from now on (new badges and wallet copies): they name you as “{name}” beside the hashed e-mail address. Credentials
          issued before keep what they say.
        </p>
      </CardContent>
    </Card>
  );
}
