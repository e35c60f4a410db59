import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Briefcase from 'lucide-react/icons/briefcase';
import Camera from 'lucide-react/icons/camera';
import Check from 'lucide-react/icons/check';
import Copy from 'lucide-react/icons/copy';
import ExternalLink from 'lucide-react/icons/external-link';
import FileJson from 'lucide-react/icons/file-json';
import FileKey from 'lucide-react/icons/file-key';
import ImageDown from 'lucide-react/icons/image-down';
import Layers from 'lucide-react/icons/layers';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Share2 from 'lucide-react/icons/share-2';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Sparkles from 'lucide-react/icons/sparkles';
import UserRound from 'lucide-react/icons/user-round';
import { publishSessionUser } from '../lib/session-store';
import { toast, toastError } from '../lib/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, LinkButton } from '../components/ui';
import { AddToWallet } from '../components/wallet/AddToWallet';
import { BadgeIcon } from '../components/badges';
import { GrantStanding } from '../components/GrantStanding';
import { ScoreVisibility } from '../components/ScoreVisibility';
import { copyText, fromApi, type ApiUser, type EarnedBadge, type User } from '../components/user';
import { Avatar } from '../components/avatar';
import { LocalTime } from '../components/LocalTime';
import { deferred } from '../lib/deferred';

// the picture dialog's code loads when the member first opens it
// the cards beside and below the badges: rendered by the server with the rest, their code
// fetched apart and hydrated when it arrives (views/lib/deferred.tsx)
const DetailsForm = deferred(() => import('../components/profile/DetailsForm').then((m) => m.DetailsForm));
const ConnectedApps = deferred(() => import('../components/profile/ConnectedApps').then((m) => m.ConnectedApps));
const CredentialName = deferred(() => import('../components/profile/CredentialName').then((m) => m.CredentialName));

const PictureDialog = lazy(() => import('../components/profile/PictureDialog').then((m) => ({ default: m.PictureDialog })));

// held and categories: the badges in force, counted by the server as the Hall of Fame counts them
export type ProfileProps = { user: ApiUser; badges: EarnedBadge[]; origin: string; held?: number; categories?: number };

/** The holder's downloads of a badge: the signed credential and the PNG it is baked into. */
const DOWNLOAD_LINK = 'inline-flex min-h-6 items-center gap-1 font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-sm';

/** The copy button's "Copied!" lasts 2 seconds (spec section 9). */
const COPY_FEEDBACK_MS = 2000;

function useCopied(): [string, (key: string, text: string, success: string) => Promise<void>] {
  const [copied, setCopied] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (key: string, text: string, success: string) => {
    if (await copyText(text)) {
      setCopied(key);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(''), COPY_FEEDBACK_MS);
      toast({ title: success, variant: 'success' });
    } else {
      toastError('Failed to copy to clipboard');
    }
  };
  return [copied, copy];
}

/** The id a holder quotes (MM-XXXX-XXXX-XXXX, as on the badge page and the verify page);
 * the earned badge's own verificationId is the link form used in /verify/{id}. */
function quoteId(user: User, b: EarnedBadge): string {
  return user.badgeGrants?.find((g) => g.id === b.id)?.verificationId || b.verificationId;
}

/** The member's own profile: header, stats, earned badges, details and picture editing. */
export default function Profile({ user: initial, badges, origin, held, categories: heldCategories }: ProfileProps) {
  const [user, setUser] = useState<User>(() => fromApi(initial));
  const [picOpen, setPicOpen] = useState(false);
  const [picUsed, setPicUsed] = useState(false);
  if (picOpen && !picUsed) setPicUsed(true);
  const [copied, copy] = useCopied();
  const count = held ?? badges.length;
  const categories = heldCategories ?? new Set(badges.map((b) => b.category)).size;
  const isAdmin = user.role === 'admin';
  const base = origin.replace(/\/$/, '');

  const updated = (u: User) => {
    setUser(u);
    // other islands (the header) may follow the signed-in user
    publishSessionUser({ id: u.id, name: u.name, email: u.email, role: u.role, profilePicUrl: u.profilePicUrl });
  };

  return (
    <div className="space-y-6">
      <Card className="overflow-hidden">
        <div className="h-24 bg-gradient-to-r from-primary/80 via-indigo-500/70 to-sky-500/60 sm:h-28" aria-hidden="true" />
        <div className="flex flex-col gap-5 px-6 pb-6 sm:flex-row sm:items-end">
          <div className="relative -mt-14 w-fit shrink-0 rounded-full border-4 border-card bg-card">
            <Avatar name={user.name} url={user.profilePicUrl} className="h-28 w-28" textClassName="text-3xl" />
            <button
              type="button"
              onClick={() => setPicOpen(true)}
              className="absolute bottom-1 right-1 flex h-9 w-9 items-center justify-center rounded-full border-2 border-card bg-primary text-primary-foreground shadow hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="Edit profile picture"
              data-testid="edit-picture"
            >
              <Camera className="h-4 w-4" />
            </button>
          </div>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="truncate text-2xl font-bold tracking-tight" data-testid="profile-name">{user.name}</h1>
              <Chip tone={isAdmin ? 'default' : 'secondary'} className="gap-1">
                {isAdmin ? <ShieldCheck className="h-3 w-3" aria-hidden="true" /> : <BadgeCheck className="h-3 w-3" aria-hidden="true" />}
                {isAdmin ? 'Administrator' : 'Professional'}
              </Chip>
            </div>
            <p className="mt-1 truncate text-sm text-muted-foreground">{user.email}</p>
            {user.position && (
              <p className="mt-1 flex items-center gap-1.5 text-sm">
                <Briefcase className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" /> {user.position}
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => copy('profile', `${base}/profile/${user.id}`, 'Profile link copied!')} data-testid="share-profile">
              {copied === 'profile' ? <Check aria-hidden="true" /> : <Share2 aria-hidden="true" />}
              {copied === 'profile' ? 'Copied!' : 'Share Profile'}
            </Button>
            <LinkButton variant="ghost" href={`/profile/${user.id}`}>
              <ExternalLink aria-hidden="true" /> Public view
            </LinkButton>
          </div>
        </div>
      </Card>

      <div className="grid grid-cols-3 gap-3 sm:gap-4">
        <Stat icon={<Award className="h-5 w-5" />} label="Badges Earned" short="Badges" value={String(count)} testId="stat-badges" />
        <Stat icon={<Layers className="h-5 w-5" />} label="Categories" short="Categories" value={String(categories)} testId="stat-categories" />
        <Stat icon={isAdmin ? <ShieldCheck className="h-5 w-5" /> : <UserRound className="h-5 w-5" />} label="Status" short="Status" value={isAdmin ? 'Admin' : 'Member'} testId="stat-status" />
      </div>

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        <Card className="lg:col-span-3">
          <CardHeader className="flex-row items-center justify-between gap-4 space-y-0">
            <div>
              <CardTitle>Earned Badges</CardTitle>
              <CardDescription className="mt-1.5">Credentials you hold, each with a public verification page.</CardDescription>
            </div>
            {badges.length > 0 && (
              <a href="/badges" className="shrink-0 text-sm font-medium text-primary hover:underline">
                Earn More Badges
              </a>
            )}
          </CardHeader>
          <CardContent>
            {badges.length === 0 ? (
              <div className="flex flex-col items-center rounded-lg border border-dashed px-6 py-10 text-center">
                <span className="flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
                  <Sparkles className="h-6 w-6" aria-hidden="true" />
                </span>
                <p className="mt-4 font-semibold">No badges earned yet</p>
                <p className="mt-1 max-w-sm text-sm text-muted-foreground">Pass a quiz or submit proof of your work to earn your first verified badge.</p>
                <LinkButton href="/badges" className="mt-5">
                  Discover Badges
                </LinkButton>
              </div>
            ) : (
              <ul className="divide-y" data-testid="earned-badges">
                {badges.map((b) => (
                  // the actions wrap under the details when the card is narrow (it is half the page
                  // from lg up), so the details keep a readable width
                  <li key={b.id} className="flex flex-wrap items-start gap-3 py-4 first:pt-0 last:pb-0">
                    <BadgeIcon icon={b.icon} color={b.color} />
                    <div className="min-w-0 flex-1 basis-56">
                      <p className="font-semibold">{b.name}</p>
                      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                        <Chip tone="outline">{b.category}</Chip>
                        <span>Earned <LocalTime iso={b.earnedDate} /></span>
                      </div>
                      <p className="mt-1.5">
                        <GrantStanding s={b.standing} />
                      </p>
                      <p className="mt-1.5 text-xs text-muted-foreground">
                        Verification ID:{' '}
                        <code className="break-all rounded bg-muted px-1 py-0.5 font-mono text-[11px] text-foreground" data-testid="earned-verification-id">
                          {quoteId(user, b)}
                        </code>
                      </p>
                      {b.scored && <ScoreVisibility grantId={b.id} name={b.name} hidden={!!b.hideScore} />}
                      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" data-testid="badge-downloads">
                        <a href={`/credentials/${encodeURIComponent(b.verificationId)}.json?download=1`} download className={DOWNLOAD_LINK} aria-label={`Credential (JSON) of ${b.name}`}>
                          <FileJson className="h-3.5 w-3.5" aria-hidden="true" /> Credential (JSON)
                        </a>
                        <a href={`/credentials/${encodeURIComponent(b.verificationId)}.jwt?download=1`} download className={DOWNLOAD_LINK} aria-label={`Credential (VC-JWT) of ${b.name}`}>
                          <FileKey className="h-3.5 w-3.5" aria-hidden="true" /> Credential (VC-JWT)
                        </a>
                        <a href={`/credentials/${encodeURIComponent(b.verificationId)}.png?download=1`} download className={DOWNLOAD_LINK} aria-label={`Baked badge (PNG) of ${b.name}`}>
                          <ImageDown className="h-3.5 w-3.5" aria-hidden="true" /> Baked badge (PNG)
                        </a>
                      </div>
                    </div>
                    <div className="flex max-w-full shrink-0 flex-wrap gap-2">
                      {b.renewHref && (
                        <LinkButton size="sm" href={b.renewHref} aria-label={`Renew ${b.name}`} data-testid="profile-renew">
                          <RotateCcw aria-hidden="true" /> Renew
                        </LinkButton>
                      )}
                      {(!b.standing || b.standing.held) && <AddToWallet grantId={b.id} badgeName={b.name} size="sm" />}
                      {(!b.standing || b.standing.held) && (
                      <Button size="sm" variant="outline" onClick={() => copy(b.id, `${base}/verify/${b.verificationId}`, 'Badge verification link copied!')} aria-label={`Share ${b.name}`}>
                        {copied === b.id ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                        {copied === b.id ? 'Copied!' : 'Share'}
                      </Button>
                      )}
                      <LinkButton size="sm" variant="secondary" href={`/verify/${encodeURIComponent(b.verificationId)}`} aria-label={`Verify ${b.name}`}>
                        <ShieldCheck aria-hidden="true" /> Verify
                      </LinkButton>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <DetailsForm user={user} onSaved={updated} />
        <ConnectedApps />
        <CredentialName name={user.name} on={!!user.nameInCredentials} onChange={(on) => setUser({ ...user, nameInCredentials: on })} />
      </div>

      {picUsed && (
        <Suspense fallback={null}>
          <PictureDialog open={picOpen} onOpenChange={setPicOpen} onSaved={updated} />
        </Suspense>
      )}
    </div>
  );
}

function Stat({ icon, label, short, value, testId }: { icon: ReactNode; label: string; short: string; value: string; testId: string }) {
  return (
    <Card className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:gap-4 sm:p-5">
      <span className="hidden h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="truncate text-xs text-muted-foreground sm:text-sm">
          <span className="sm:hidden">{short}</span>
          <span className="hidden sm:inline">{label}</span>
        </p>
        <p className="text-lg font-bold sm:text-2xl" data-testid={testId}>{value}</p>
      </div>
    </Card>
  );
}
