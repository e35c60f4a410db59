import type { ReactNode } from 'react';
import FileCheck2 from 'lucide-react/icons/file-check-2';
import KeyRound from 'lucide-react/icons/key-round';
import ListChecks from 'lucide-react/icons/list-checks';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Card, Container } from '../components/ui';
import { Island } from '../components/Island';
import VerifyBadge, { type VerifyBadgeProps } from '../islands/VerifyBadge';
import BulkVerify, { type BulkVerifyProps } from '../islands/BulkVerify';
import Ellipsis from '../components/Ellipsis';
import { GrantHistory, type HistoryItem } from '../components/GrantHistory';
import { cn } from '../lib/cn';

// the bulk check's limits (app/verify: MaxBulkIDs, MaxBulkBytes)
const BULK_LIMITS = { maxIds: 1000, maxBytes: 1 << 20 };

/** /verify-badge and /verify/:verificationId: the result is rendered on the server. */
export default function VerifyPage(p: VerifyBadgeProps & { history?: HistoryItem[] } & Pick<BulkVerifyProps, 'bulkText' | 'bulk' | 'bulkError'>) {
  const empty = !p.query;
  // a shared link's result: on a phone the badge, its holder and the verdict come first
  const shown = !!p.result;
  return (
    <Container className={cn('max-w-5xl sm:py-12', shown ? 'py-5' : 'py-8')}>
      <div className="mx-auto max-w-2xl text-center">
        <span className={cn('mx-auto h-12 w-12 items-center justify-center rounded-xl bg-primary/10 text-primary', shown ? 'hidden sm:flex' : 'flex')}>
          <ShieldCheck className="h-6 w-6" aria-hidden="true" />
        </span>
        <h1 className={cn('font-bold tracking-tight sm:mt-4 sm:text-4xl', shown ? 'text-2xl' : 'mt-4 text-3xl')}>Verify a Badge</h1>
        <p className={cn('mt-3 text-muted-foreground', shown && 'hidden sm:block')}>
          Check that a badge was issued by Meritmark to the person who shows it, and that it is still valid.
        </p>
      </div>

      <div className={cn('mx-auto max-w-5xl sm:mt-8', shown ? 'mt-4' : 'mt-8')}>
        <Island name="VerifyBadge" component={VerifyBadge} props={{ query: p.query, result: p.result, notFound: p.notFound, rateLimited: p.rateLimited, error: p.error, holder: !!p.holder }} />
      </div>

      {p.history && p.history.length > 1 && (
        <section aria-label="Credential history" className="mx-auto mt-6 max-w-5xl">
          <GrantHistory items={p.history} />
        </section>
      )}

      {empty && (
        <section aria-label="Bulk verification" className="mx-auto mt-8 max-w-5xl" id="bulk">
          <Island name="BulkVerify" component={BulkVerify} props={{ ...BULK_LIMITS, bulkText: p.bulkText, bulk: p.bulk, bulkError: p.bulkError }} />
        </section>
      )}

      {empty && (
        <section aria-labelledby="how-heading" className="mt-12">
          <h2 id="how-heading" className="text-center text-xl font-semibold tracking-tight">How verification works</h2>
          <ol className="mt-6 grid gap-4 sm:grid-cols-3">
            <Step icon={<ListChecks className="h-5 w-5" aria-hidden="true" />} title="Find the ID">
              The holder shares a link (<Ellipsis />/verify/<Ellipsis />) or gives you the verification ID on their profile, such as MM-7K2D-9QXA-4PZM.
            </Step>
            <Step icon={<KeyRound className="h-5 w-5" aria-hidden="true" />} title="We check the signature">
              Every badge is a signed Open Badges 3.0 credential, in two forms: a JWT signed with ES256 (its kid names the key's URL) and a JSON-LD credential carrying an eddsa-rdfc-2022 Data Integrity proof by our did:web. We check the signature against our published keys.
            </Step>
            <Step icon={<FileCheck2 className="h-5 w-5" aria-hidden="true" />} title="And its status">
              We confirm it has not been revoked or expired, and show who holds it and when it was issued.
            </Step>
          </ol>
        </section>
      )}
    </Container>
  );
}

function Step({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li>
      <Card className="h-full p-5">
        <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-primary/10 text-primary">{icon}</span>
        <h3 className="mt-3 font-semibold">{title}</h3>
        <p className="mt-1 text-sm text-muted-foreground">{children}</p>
      </Card>
    </li>
  );
}
