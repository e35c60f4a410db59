import { useEffect, useState } from 'react';
import AppWindow from 'lucide-react/icons/app-window';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Unplug from 'lucide-react/icons/unplug';
import { api, errorMessage } from '../../lib/api';
import { useResource } from '../../lib/hooks/useResource';
import { toast, toastError } from '../../lib/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Skeleton } from '../ui';
import { LocalTime } from '../LocalTime';

type Scope = { uri: string; title: string; description: string };
export type ConnectedApp = { clientId: string; name: string; uri: string; scopes: Scope[]; grantedAt: string; lastUsedAt: string | null };

/** Connected apps: the wallets a member allowed to read their badges through the Open
 * Badges API (/oauth/authorize), with what each may read and a Revoke button that ends
 * its access at once. */
export function ConnectedApps() {
  const loaded = useResource<{ apps: ConnectedApp[] }>('/oauth/apps');
  // apps disconnected here, left out of the list without asking the server again
  const [gone, setGone] = useState<string[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const apps = loaded.error ? [] : loaded.data ? loaded.data.apps.filter((x) => !gone.includes(x.clientId)) : null;
  useEffect(() => {
    if (loaded.error) toastError(errorMessage(loaded.error, 'Could not load your connected apps.'));
  }, [loaded.error]);

  const revoke = async (a: ConnectedApp) => {
    setBusy(a.clientId);
    try {
      await api(`/oauth/apps/${encodeURIComponent(a.clientId)}`, { method: 'DELETE' });
      setGone((list) => [...list, a.clientId]);
      toast({ title: 'App disconnected', description: `${a.name} can no longer read your badges.`, variant: 'success' });
    } catch (err) {
      toastError(errorMessage(err, 'Could not disconnect the app.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card className="lg:col-span-3" data-testid="connected-apps">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AppWindow className="h-5 w-5 text-primary" aria-hidden="true" /> Connected Apps
        </CardTitle>
        <CardDescription>Wallets and backpacks you allowed to read your badges through the Open Badges API.</CardDescription>
      </CardHeader>
      <CardContent>
        {apps === null ? (
          <Skeleton className="h-16 w-full" />
        ) : apps.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="connected-apps-empty">
            No apps are connected. When a wallet asks to read your badges, you will be asked to allow it here on Meritmark.
          </p>
        ) : (
          <ul className="divide-y" data-testid="connected-apps-list">
            {apps.map((a) => (
              <li key={a.clientId} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center" data-testid="connected-app">
                <div className="min-w-0 flex-1">
                  <p className="font-semibold">{a.name}</p>
                  {a.uri && <p className="truncate text-xs text-muted-foreground">{a.uri}</p>}
                  <div className="mt-2 flex flex-wrap gap-1.5">
                    {a.scopes.map((s) => (
                      <Chip key={s.uri} tone="outline" title={s.description}>
                        {s.title}
                      </Chip>
                    ))}
                  </div>
                  <p className="mt-2 text-xs text-muted-foreground">
                    Allowed <LocalTime iso={a.grantedAt} /> · {a.lastUsedAt ? <>Last used <LocalTime iso={a.lastUsedAt} withTime /></> : 'Not used yet'}
                  </p>
                </div>
                <Button size="sm" variant="outline" onClick={() => revoke(a)} disabled={busy === a.clientId} aria-label={`Revoke ${a.name}`} data-testid="revoke-app">
                  {busy === a.clientId ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Unplug aria-hidden="true" />}
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
