import ChevronRight from 'lucide-react/icons/chevron-right';
import { Island } from '../components/Island';
import { Container } from '../components/ui';
import QuizRunner from '../islands/QuizRunner';
import type { PageState } from '../components/quiz/blocked';

export type QuizPageProps = { badgeId: string; badgeName: string; attemptId: string; state?: PageState | null };

/** /quiz/:badgeId — the timed skill quiz (signed-in members; the server redirects visitors). */
export default function QuizPage({ badgeId, badgeName, attemptId, state }: QuizPageProps) {
  return (
    <Container className="py-8 sm:py-12">
      <nav aria-label="Breadcrumb" className="mx-auto mb-6 flex w-full max-w-3xl items-center gap-1 text-sm text-muted-foreground">
        <a href="/badges" className="hover:text-foreground">
          Badges
        </a>
        {badgeName && (
          <>
            <ChevronRight className="h-4 w-4" />
            <a href={`/badges/${badgeId}`} className="truncate hover:text-foreground">
              {badgeName}
            </a>
          </>
        )}
        <ChevronRight className="h-4 w-4" />
        <span className="text-foreground">Quiz</span>
      </nav>
      <Island name="QuizRunner" component={QuizRunner} props={{ badgeId, badgeName, attemptId, state: state || null }} />
    </Container>
  );
}
