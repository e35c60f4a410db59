// Quiz Management › quiz-management: the quiz of the selected badge. Create the quiz (the
// button is hidden once the badge has one), create questions for it, add questions from
// the bank, remove questions.
import { useMemo, useState, type FormEvent } from 'react';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import Clock from 'lucide-react/icons/clock';
import Library from 'lucide-react/icons/library';
import ListPlus from 'lucide-react/icons/list-plus';
import MousePointerClick from 'lucide-react/icons/mouse-pointer-click';
import Plus from 'lucide-react/icons/plus';
import Target from 'lucide-react/icons/target';
import X from 'lucide-react/icons/x';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../dialog';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input, Textarea } from '../ui';
import { BadgeIcon } from '../badges';
import { toastError } from '../../lib/toast';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { Field, SearchInput, numberOrNull, toastFail, toastSuccess, type AdminBadge, type AdminQuiz, type Question } from './BadgeAdminKit';
import { EmptyState } from '../ui/empty-state';
import { Switch } from '../ui/switch';
import { QuestionFormDialog } from './QuestionFormDialog';
import { ItemAnalysis, QuizMembers, QuizSettingsButton, QuizSettingsDialog } from './QuizSettings';
import { QuizBlueprint } from './QuizBlueprint';
import { StandardSetting } from './StandardSetting';

import { capitalize, plural } from '../../lib/format';
export function difficultyTone(d: string): 'destructive' | 'success' | 'warning' {
  return d === 'hard' ? 'destructive' : d === 'easy' ? 'success' : 'warning';
}

export function QuestionOptions({ q }: { q: Question }) {
  const key = q.type === 'multiple' && q.correctIndexes ? q.correctIndexes : [q.correctIndex];
  return (
    <>
    {q.type === 'multiple' && (
      <p className="mt-1 text-xs text-muted-foreground" data-testid="question-type">
        Multiple response: {key.length} of {q.options.length} correct{q.showCount ? ', count shown' : ''}
      </p>
    )}
    <ol className="mt-2 grid gap-1 sm:grid-cols-2">
      {q.options.map((o, i) => (
        <li
          key={i}
          className={cn(
            'flex items-start gap-2 rounded-md border px-2.5 py-1.5 text-sm',
            key.includes(i) ? 'border-success/40 bg-success/10 font-medium' : 'text-muted-foreground',
          )}
        >
          <span className="font-mono text-xs leading-5">{String.fromCharCode(65 + i)}</span>
          <span className="min-w-0 flex-1 break-words">{o}</span>
          {key.includes(i) && <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-label="Correct answer" />}
        </li>
      ))}
    </ol>
    </>
  );
}

function CreateQuizForm({ badge, onCreated }: { badge: AdminBadge | null; onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [passingScore, setPassingScore] = useState('');
  const [timeLimit, setTimeLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!badge) {
      toastError('Please select a badge first');
      return;
    }
    setBusy(true);
    try {
      await api(`/admin/badges/${badge._id}/quiz`, {
        method: 'POST',
        body: { title, description, passingScore: numberOrNull(passingScore), timeLimit: numberOrNull(timeLimit) },
      });
      toastSuccess('Quiz created successfully');
      onCreated();
    } catch (err) {
      toastFail(err, 'Failed to create quiz');
    } finally {
      setBusy(false);
    }
  };
  const name = badge?.name ?? 'Badge';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create Quiz</CardTitle>
        <CardDescription>{name} has no quiz yet. Empty fields take the defaults shown.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid grid-cols-1 gap-4 sm:grid-cols-2" data-testid="create-quiz-form">
          <Field label="Title" htmlFor="quiz-title" className="sm:col-span-2">
            <Input id="quiz-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} placeholder={`${name} Assessment`} />
          </Field>
          <Field label="Description" htmlFor="quiz-description" className="sm:col-span-2">
            <Textarea id="quiz-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} rows={2} placeholder={`Answer each question to show your ${name} skills.`} />
          </Field>
          <Field label="Passing score (%)" htmlFor="quiz-passing" hint="1 to 100">
            <Input id="quiz-passing" type="number" min={1} max={100} step={1} value={passingScore} onChange={(e) => setPassingScore(e.target.value)} placeholder="70" />
          </Field>
          <Field label="Time limit (minutes)" htmlFor="quiz-time" hint="At least 1">
            <Input id="quiz-time" type="number" min={1} max={300} step={1} value={timeLimit} onChange={(e) => setTimeLimit(e.target.value)} placeholder="15" />
          </Field>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy} data-testid="create-quiz">
              <Plus /> {busy ? 'Creating…' : 'Create Quiz'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** Dialog listing bank questions not yet in the quiz, each with an Add button. */
function BankPicker({ open, onOpenChange, quiz, bank, onAdded }: { open: boolean; onOpenChange: (v: boolean) => void; quiz: AdminQuiz; bank: Question[]; onAdded: () => void }) {
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState<string | null>(null);
  const inQuiz = useMemo(() => new Set(quiz.questions.map((q) => q._id)), [quiz]);
  const q = search.trim().toLowerCase();
  const available = bank.filter((x) => !inQuiz.has(x._id) && (!q || `${x.text} ${x.category} ${x.topic}`.toLowerCase().includes(q)));
  const add = async (id: string) => {
    setAdding(id);
    try {
      await api(`/admin/quizzes/${quiz._id}/questions/${id}`, { method: 'POST' });
      toastSuccess('Question added to quiz');
      onAdded();
    } catch (e) {
      toastFail(e, 'Failed to add question to quiz');
    } finally {
      setAdding(null);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add from Question Bank</DialogTitle>
          <DialogDescription>Questions not yet in “{quiz.title}”.</DialogDescription>
        </DialogHeader>
        <SearchInput value={search} onChange={setSearch} placeholder="Search by text, category or topic" label="Search the question bank" />
        <div className="grid max-h-[55vh] gap-2 overflow-y-auto pr-1">
          {available.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{bank.length === inQuiz.size ? 'Every bank question is already in this quiz.' : 'No questions match.'}</p>
          ) : (
            available.map((x) => (
              <div key={x._id} className="flex items-start gap-3 rounded-lg border p-3" data-testid="bank-pick">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium">{x.text}</p>
                  <div className="mt-1 flex flex-wrap gap-1.5">
                    <Chip tone={difficultyTone(x.difficulty)}>{capitalize(x.difficulty)}</Chip>
                    <Chip tone="outline">{x.category}</Chip>
                    {x.topic && <Chip tone="outline">{x.topic}</Chip>}
                  </div>
                </div>
                <Button size="sm" variant="outline" onClick={() => add(x._id)} disabled={adding !== null}>
                  <Plus /> {adding === x._id ? 'Adding…' : 'Add'}
                </Button>
              </div>
            ))
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}

export function QuizManager({ badge, quiz, bank, onChanged, onChooseBadge }: {
  badge: AdminBadge | null;
  quiz: AdminQuiz | null;
  bank: Question[];
  onChanged: () => void;
  onChooseBadge: () => void;
}) {
  const [creating, setCreating] = useState(false);
  const [picking, setPicking] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [toggling, setToggling] = useState(false);
  const [settings, setSettings] = useState(false);

  if (!badge) {
    return (
      <EmptyState
        icon={MousePointerClick}
        title="Please select a badge first"
        description="Pick a skill badge to create its quiz or manage its questions."
        action={<Button onClick={onChooseBadge}>Choose a badge</Button>}
      />
    );
  }

  const remove = async (questionId: string) => {
    if (!quiz) return;
    setRemoving(questionId);
    try {
      await api(`/admin/quizzes/${quiz._id}/questions/${questionId}`, { method: 'DELETE' });
      toastSuccess('Question removed from quiz');
      onChanged();
    } catch (e) {
      toastFail(e, 'Failed to remove question from quiz');
    } finally {
      setRemoving(null);
    }
  };
  // undo (on the toast, for a few seconds) switches it back; an undo offers no undo
  const toggleQuiz = async (undoable = true): Promise<void> => {
    if (!quiz) return;
    const id = quiz._id;
    setToggling(true);
    try {
      await api(`/admin/quizzes/${id}/toggle`, { method: 'PATCH' });
      toastSuccess('Quiz status updated successfully', undoable ? () => undoToggle(id) : undefined);
      onChanged();
    } catch (e) {
      toastFail(e, 'Failed to update quiz status');
    } finally {
      setToggling(false);
    }
  };
  const undoToggle = async (id: string) => {
    try {
      await api(`/admin/quizzes/${id}/toggle`, { method: 'PATCH' });
      toastSuccess('Quiz status updated successfully');
      onChanged();
    } catch (e) {
      toastFail(e, 'Failed to update quiz status');
    }
  };
  const openCreate = () => {
    if (!quiz) {
      toastError('No quiz selected');
      return;
    }
    setCreating(true);
  };

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="quiz-manager">
      <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center">
        <BadgeIcon icon={badge.icon} color={badge.color} />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Selected badge</p>
          <h3 className="truncate text-lg font-semibold">{badge.name}</h3>
          <p className="text-sm text-muted-foreground">
            {badge.category} · {capitalize(badge.level)} · {badge.isActive ? 'Active in the catalogue' : 'Inactive (not in the catalogue)'}
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={onChooseBadge}>
          Change badge
        </Button>
      </Card>

      {!quiz ? (
        <CreateQuizForm badge={badge} onCreated={onChanged} />
      ) : (
        <>
          <Card>
            <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0">
                <CardTitle className="leading-snug" data-testid="quiz-title">{quiz.title}</CardTitle>
                <CardDescription className="mt-1.5">{quiz.description}</CardDescription>
                <div className="mt-3 flex flex-wrap gap-1.5">
                  <Chip tone="outline">
                    <Target className="mr-1 h-3 w-3" /> Pass at {quiz.passingScore}%
                  </Chip>
                  <Chip tone="outline">
                    <Clock className="mr-1 h-3 w-3" /> {quiz.timeLimit} min
                  </Chip>
                  <Chip tone="outline" data-testid="quiz-pool">
                    {quiz.drawSize < quiz.questionCount ? `${quiz.drawSize} drawn per attempt from a pool of ${quiz.questionCount}` : `${plural(quiz.questionCount, 'question')} (whole pool each attempt)`}
                  </Chip>
                  <Chip tone="outline">{quiz.retakeRule}</Chip>
                </div>
              </div>
              <label className="flex shrink-0 items-center gap-2 text-sm">
                <Switch checked={quiz.isActive} onCheckedChange={() => toggleQuiz()} disabled={toggling} label={quiz.isActive ? 'Deactivate quiz' : 'Activate quiz'} />
                {quiz.isActive ? 'Quiz active' : 'Quiz inactive'}
              </label>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2">
              <Button onClick={openCreate} data-testid="create-question-for-quiz">
                <ListPlus /> Create Question
              </Button>
              <Button variant="outline" onClick={() => setPicking(true)} data-testid="add-from-bank">
                <Library /> Add from Bank
              </Button>
              <QuizSettingsButton onClick={() => setSettings(true)} />
            </CardContent>
          </Card>
          {!badge.isActive && quiz.questionCount > 0 && (
            <p className="rounded-lg border border-warning/50 bg-warning/10 px-4 py-3 text-sm">
              The quiz is ready. Activate {badge.name} in Badge Management to publish it in the catalogue.
            </p>
          )}
          {quiz.questions.length === 0 ? (
            <EmptyState icon={ListPlus} title="No questions yet" description="Create questions for this quiz or add existing ones from the bank." />
          ) : (
            <ol className="grid gap-3" data-testid="quiz-questions">
              {quiz.questions.map((q, i) => (
                <li key={q._id}>
                  <Card className="p-4" data-testid="quiz-question">
                    <div className="flex items-start gap-3">
                      <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary">{i + 1}</span>
                      <div className="min-w-0 flex-1">
                        <p className="font-medium">{q.text}</p>
                        <div className="mt-1.5 flex flex-wrap gap-1.5">
                          <Chip tone={difficultyTone(q.difficulty)}>{capitalize(q.difficulty)}</Chip>
                          {q.topic && <Chip tone="outline">{q.topic}</Chip>}
                          {q.retired && <Chip tone="warning">Retired</Chip>}
                        </div>
                        <QuestionOptions q={q} />
                      </div>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive hover:text-destructive"
                        onClick={() => remove(q._id)}
                        disabled={removing !== null}
                        aria-label={`Remove question ${i + 1} from the quiz`}
                      >
                        <X /> <span className="hidden sm:inline">{removing === q._id ? 'Removing…' : 'Remove'}</span>
                      </Button>
                    </div>
                  </Card>
                </li>
              ))}
            </ol>
          )}
          <QuestionFormDialog open={creating} onOpenChange={setCreating} mode="quiz" quiz={quiz} bank={bank} onSaved={onChanged} />
          <BankPicker open={picking} onOpenChange={setPicking} quiz={quiz} bank={bank} onAdded={onChanged} />
          <QuizSettingsDialog open={settings} onOpenChange={setSettings} quiz={quiz} onSaved={onChanged} />
          {quiz.questions.length > 0 && <QuizBlueprint quiz={quiz} onSaved={onChanged} />}
          <ItemAnalysis quizId={quiz._id} refresh={quiz} />
          {quiz.questions.length > 0 && <StandardSetting quizId={quiz._id} refresh={quiz} onChanged={onChanged} />}
          <QuizMembers quizId={quiz._id} refresh={quiz} />
        </>
      )}
    </div>
  );
}
