import LinkIcon from 'lucide-react/icons/link';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import { Island } from '../components/Island';
import { Card, CardContent, Container } from '../components/ui';
import AngoffRater, { type AngoffSheet } from '../islands/AngoffRater';
import { LocalTime } from '../components/LocalTime';

export type AngoffPageProps = { state: 'open' | 'submitted' | 'invalid' | string; token: string; sheet: AngoffSheet | null };

/** /angoff/{token}: an expert's sheet of a modified-Angoff standard-setting panel (app/angoff). */
export default function AngoffPage(p: AngoffPageProps) {
  if (p.state === 'invalid' || !p.sheet) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-16 sm:py-24">
        <Card>
          <CardContent className="flex flex-col items-center pt-8 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-destructive/12 text-destructive">
              <LinkIcon className="h-6 w-6" aria-hidden="true" />
            </span>
            <h1 className="mt-4 text-2xl font-bold tracking-tight">Rating link not valid</h1>
            <p className="mt-2 text-muted-foreground">This rating link is not valid, or its panel has closed. Ask the administrator who invited you for a new link.</p>
          </CardContent>
        </Card>
      </div>
    );
  }
  const s = p.sheet;
  if (p.state === 'submitted') {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-16 sm:py-24">
        <Card>
          <CardContent className="flex flex-col items-center pt-8 text-center" data-testid="angoff-submitted">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-success/12 text-success">
              <CheckCircle2 className="h-6 w-6" aria-hidden="true" />
            </span>
            <h1 className="mt-4 text-2xl font-bold tracking-tight">Thank you, {s.raterName}</h1>
            <p className="mt-2 text-muted-foreground">
              Your ratings for the {s.quizTitle} quiz were submitted{s.submittedAt ? <> on <LocalTime iso={s.submittedAt} /></> : ''}. This link is now closed.
            </p>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <Container className="max-w-3xl py-8 sm:py-12">
      <p className="text-sm font-medium text-primary">Standard setting · {s.badgeName}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">Rate the {s.quizTitle} questions</h1>
      <div className="mt-3 space-y-2 leading-relaxed text-muted-foreground">
        <p>Hello {s.raterName}. Think of a minimally competent candidate: someone who just deserves the {s.badgeName} badge, no more.</p>
        <p>
          For each of the {s.items.length} questions below, estimate the chance, from 0 to 100, that such a candidate answers it right. Skip a question you cannot judge. Save to come back
          later with this link; submit when every question is rated or skipped. Please keep the questions to yourself.
        </p>
      </div>
      <div className="mt-6">
        <Island name="AngoffRater" component={AngoffRater} props={{ token: p.token, sheet: s }} />
      </div>
    </Container>
  );
}
