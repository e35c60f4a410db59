// Quiz Management › question-bank: search by text, category or topic; create; edit; delete
// with confirmation (deleting also removes the question from the quizzes using it).
import { useMemo, useState } from 'react';
import BookOpen from 'lucide-react/icons/book-open';
import Pencil from 'lucide-react/icons/pencil';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { Button, Card, Chip } from '../ui';
import { api } from '../../lib/api';
import { capitalize } from '../../lib/format';
import { SearchInput, toastFail, toastSuccess, type Question } from './BadgeAdminKit';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState } from '../ui/empty-state';
import { QuestionFormDialog } from './QuestionFormDialog';
import { QuestionOptions, difficultyTone } from './QuizManager';
import { LocalTime } from '../LocalTime';

export function QuestionBank({ questions, onChanged }: { questions: Question[] | null; onChanged: () => void }) {
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Question | null>(null);
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Question | null>(null);
  const [deleting, setDeleting] = useState(false);

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (questions ?? []).filter((x) => !q || x.text.toLowerCase().includes(q) || x.category.toLowerCase().includes(q) || x.topic.toLowerCase().includes(q));
  }, [questions, search]);

  const remove = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await api(`/admin/questions/${toDelete._id}`, { method: 'DELETE' });
      toastSuccess('Question deleted successfully');
      setToDelete(null);
      onChanged();
    } catch (e) {
      toastFail(e, 'Failed to delete question');
    } finally {
      setDeleting(false);
    }
  };

  const usedIn = toDelete?.quizzes?.length ?? 0;
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="question-bank">
      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchInput value={search} onChange={setSearch} placeholder="Search by text, category or topic" label="Search questions" className="sm:flex-1" />
        <Button onClick={() => setCreating(true)} data-testid="create-bank-question">
          <Plus /> Create Question
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">
        {questions === null ? 'Loading…' : `${shown.length} of ${questions.length} question${questions.length === 1 ? '' : 's'}`}
      </p>
      {questions !== null && shown.length === 0 ? (
        <EmptyState
          icon={BookOpen}
          title={questions.length === 0 ? 'The question bank is empty' : 'No questions match'}
          description={questions.length === 0 ? 'Create questions here or from a quiz.' : 'Try another word, category or topic.'}
        />
      ) : (
        <div className="grid gap-3">
          {shown.map((q) => (
            <Card key={q._id} className="p-4" data-testid="bank-question">
              <div className="flex items-start gap-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{q.text}</p>
                  <div className="mt-1.5 flex flex-wrap gap-1.5">
                    <Chip tone={difficultyTone(q.difficulty)}>{capitalize(q.difficulty)}</Chip>
                    <Chip tone="outline">{q.category}</Chip>
                    {q.topic && <Chip tone="outline">{q.topic}</Chip>}
                    {q.retired && <Chip tone="warning">Retired</Chip>}
                    {q.family && (
                      <Chip tone="secondary" title="Never on one form with another question of its family" data-testid="bank-family">
                        Family: {familyName(questions, q.family)}
                      </Chip>
                    )}
                  </div>
                  <QuestionOptions q={q} />
                  <p className="mt-2 text-xs text-muted-foreground">
                    {q.quizzes && q.quizzes.length > 0 ? `In ${q.quizzes.map((z) => z.badgeName).join(', ')}` : 'Not in any quiz'} · Added <LocalTime iso={q.createdAt} />
                  </p>
                </div>
                <div className="flex shrink-0 flex-col gap-1 sm:flex-row">
                  <Button variant="ghost" size="icon" aria-label="Edit question" onClick={() => setEditing(q)}>
                    <Pencil />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label="Delete question" className="text-destructive hover:text-destructive" onClick={() => setToDelete(q)}>
                    <Trash2 />
                  </Button>
                </div>
              </div>
            </Card>
          ))}
        </div>
      )}
      <QuestionFormDialog open={creating} onOpenChange={setCreating} mode="create" bank={questions} onSaved={onChanged} />
      <QuestionFormDialog open={!!editing} onOpenChange={(o) => !o && setEditing(null)} mode="edit" question={editing} bank={questions} onSaved={onChanged} />
      <ConfirmDialog
        open={!!toDelete}
        onOpenChange={(o) => !o && setToDelete(null)}
        title="Delete this question?"
        description={
          usedIn > 0
            ? `It is used in ${usedIn === 1 ? '1 quiz' : `${usedIn} quizzes`} and will be removed from ${usedIn === 1 ? 'it' : 'them'}. This cannot be undone.`
            : 'It will be removed from the question bank. This cannot be undone.'
        }
        confirmLabel="Delete Question"
        busy={deleting}
        onConfirm={remove}
      >
        {toDelete && <p className="rounded-md bg-muted px-3 py-2 text-sm">{toDelete.text}</p>}
      </ConfirmDialog>
    </div>
  );
}

/** A family is named after its first question (its root), shortened. */
function familyName(questions: Question[] | null, root: string): string {
  const q = (questions ?? []).find((x) => x._id === root);
  if (!q) return root.slice(-6);
  return q.text.length > 40 ? `${q.text.slice(0, 40)}…` : q.text;
}
