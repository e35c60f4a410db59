import ArrowRight from 'lucide-react/icons/arrow-right';
import Award from 'lucide-react/icons/award';
import Briefcase from 'lucide-react/icons/briefcase';
import CalendarDays from 'lucide-react/icons/calendar-days';
import Globe from 'lucide-react/icons/globe';
import Layers from 'lucide-react/icons/layers';
import Linkedin from 'lucide-react/icons/linkedin';
import Pencil from 'lucide-react/icons/pencil';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Sparkles from 'lucide-react/icons/sparkles';
import { Card, CardContent, Chip, Container, LinkButton } from '../components/ui';
import { BadgeIcon } from '../components/badges';
import { GrantStanding } from '../components/GrantStanding';
import { type EarnedBadge } from '../components/account';
import { Avatar } from '../components/avatar';
import { externalHref } from '../lib/url';
import { LocalTime } from '../components/LocalTime';

type PublicProfile = {
  id: string;
  name: string;
  position: string;
  linkedin: string;
  portfolio: string;
  profilePicUrl: string;
  memberSince: string;
  badges: EarnedBadge[];
  held?: number;
  categories: number;
};

function host(u: string): string {
  const m = /^https?:\/\/([^/?#]+)/i.exec(u);
  return m ? m[1].replace(/^www\./, '') : u;
}

/** /profile/{id} — the shareable public profile: no email, only what the holder shows. */
export default function PublicProfilePage({ profile: p, isOwner }: { profile: PublicProfile; isOwner: boolean }) {
  const n = p.badges.length;
  const held = p.held ?? n; // badges in force, the Hall of Fame's count
  const linkedin = externalHref(p.linkedin);
  const portfolio = externalHref(p.portfolio);
  return (
    <Container className="max-w-4xl py-8 sm:py-12">
      {isOwner && (
        <div role="status" className="mb-6 flex flex-col gap-3 rounded-lg border bg-muted/50 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <span>This is how other people see your profile.</span>
          <a href="/profile" className="inline-flex items-center gap-1.5 font-medium text-primary hover:underline">
            <Pencil className="h-4 w-4" aria-hidden="true" /> Edit your profile
          </a>
        </div>
      )}

      <Card className="overflow-hidden">
        <div className="h-28 bg-gradient-to-r from-primary/80 via-indigo-500/70 to-sky-500/60" aria-hidden="true" />
        <CardContent className="pb-8">
          <div className="flex flex-col items-center text-center sm:flex-row sm:items-start sm:gap-6 sm:text-left">
            <div className="-mt-14 shrink-0 rounded-full border-4 border-card bg-card">
              <Avatar name={p.name} url={p.profilePicUrl} className="h-28 w-28" textClassName="text-3xl" />
            </div>
            <div className="mt-4 min-w-0 flex-1">
              <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{p.name}</h1>
              {p.position && (
                <p className="mt-1 flex items-center justify-center gap-1.5 text-muted-foreground sm:justify-start">
                  <Briefcase className="h-4 w-4 shrink-0" aria-hidden="true" /> {p.position}
                </p>
              )}
              <p className="mt-1 flex items-center justify-center gap-1.5 text-sm text-muted-foreground sm:justify-start">
                <CalendarDays className="h-4 w-4" aria-hidden="true" /> Member since <LocalTime iso={p.memberSince} />
              </p>
            </div>
          </div>
          {(linkedin || portfolio) && (
            <div className="mt-6 flex flex-wrap justify-center gap-2 sm:justify-start">
              {linkedin && (
                <LinkButton variant="outline" size="sm" href={linkedin} target="_blank" rel="noopener noreferrer nofollow me">
                  <Linkedin aria-hidden="true" /> LinkedIn
                </LinkButton>
              )}
              {portfolio && (
                <LinkButton variant="outline" size="sm" href={portfolio} target="_blank" rel="noopener noreferrer nofollow me">
                  <Globe aria-hidden="true" /> {host(portfolio)}
                </LinkButton>
              )}
            </div>
          )}
          <dl className="mt-8 grid grid-cols-2 gap-4 sm:max-w-sm">
            <div className="rounded-lg border p-4">
              <dt className="flex items-center gap-1.5 text-sm text-muted-foreground"><Award className="h-4 w-4" aria-hidden="true" /> Verified badges</dt>
              <dd className="mt-1 text-2xl font-bold" data-testid="public-held">{held}</dd>
            </div>
            <div className="rounded-lg border p-4">
              <dt className="flex items-center gap-1.5 text-sm text-muted-foreground"><Layers className="h-4 w-4" aria-hidden="true" /> Categories</dt>
              <dd className="mt-1 text-2xl font-bold">{p.categories}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>

      <section aria-labelledby="earned-heading" className="mt-10">
        <h2 id="earned-heading" className="text-xl font-semibold tracking-tight">Earned badges</h2>
        <p className="mt-1 text-sm text-muted-foreground">Each badge links to its public verification page.</p>
        {n === 0 ? (
          <Card className="mt-4">
            <div className="flex flex-col items-center px-6 py-12 text-center">
              <Sparkles className="h-8 w-8 text-primary" aria-hidden="true" />
              <p className="mt-3 font-semibold">No badges earned yet</p>
              <p className="mt-1 text-sm text-muted-foreground">{p.name} has not earned a verified badge yet.</p>
              <LinkButton href="/badges" variant="outline" className="mt-5">Discover Badges</LinkButton>
            </div>
          </Card>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {p.badges.map((b) => (
              <li key={b.id}>
                <Card className="flex h-full flex-col p-5">
                  <div className="flex items-start gap-4">
                    <BadgeIcon icon={b.icon} color={b.color} />
                    <div className="min-w-0">
                      <h3 className="font-semibold leading-snug">{b.name}</h3>
                      <div className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                        <Chip tone="outline">{b.category}</Chip>
                        <span>Earned <LocalTime iso={b.earnedDate} /></span>
                      </div>
                    </div>
                  </div>
                  <div className="mt-4 flex flex-1 items-end justify-between gap-3 border-t pt-4">
                    {b.standing ? (
                      <GrantStanding s={b.standing} />
                    ) : (
                      <span className="flex items-center gap-1.5 text-xs font-medium text-success">
                        <ShieldCheck className="h-4 w-4" aria-hidden="true" /> Verified credential
                      </span>
                    )}
                    <a href={`/verify/${encodeURIComponent(b.verificationId)}`} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
                      Verify <ArrowRight className="h-3.5 w-3.5" aria-hidden="true" />
                    </a>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Container>
  );
}
