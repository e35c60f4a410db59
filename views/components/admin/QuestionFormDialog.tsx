// The question form: create in the bank, create for a quiz (added to it at once), or edit.
// Single choice has four option slots, multiple response ("select all that apply") six;
// the first two are required; empty options are dropped before sending and the correct
// answers follow their options.
import { useState, type FormEvent } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { Button, Input, Textarea } from '../ui';
import { toastError } from '../../lib/toast';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { DIFFICULTIES, Field, NativeSelect, toastFail, toastSuccess, type AdminQuiz, type Question } from './BadgeAdminKit';

import { capitalize } from '../../lib/format';
export type QuestionFormMode = 'create' | 'quiz' | 'edit';

type Values = {
  text: string;
  options: string[];
  correctIndex: number;
  multiple: boolean;
  correctIndexes: number[];
  showCount: boolean;
  difficulty: string;
  explanation: string;
  topic: string;
  category: string;
  familyOf: string;
};

const SLOTS = 4;
const MULTI_SLOTS = 6;

function initialValues(q?: Question | null): Values {
  if (!q)
    return { text: '', options: ['', '', '', '', '', ''], correctIndex: 0, multiple: false, correctIndexes: [], showCount: false, difficulty: 'medium', explanation: '', topic: '', category: '', familyOf: '' };
  const opts = [...q.options, '', '', '', '', '', ''].slice(0, MULTI_SLOTS);
  const multiple = q.type === 'multiple';
  return {
    text: q.text, options: opts, correctIndex: q.correctIndex, multiple, correctIndexes: multiple ? q.correctIndexes || [] : [], showCount: !!q.showCount,
    difficulty: q.difficulty, explanation: q.explanation, topic: q.topic, category: q.category, familyOf: q.familyOf || '',
  };
}

/** The kept options and the correct ones mapped onto them (multiple response). */
export function keptMultiple(options: string[], correct: number[]): { options: string[]; correctIndexes: number[] } {
  const kept: string[] = [];
  const idx: number[] = [];
  options.forEach((o, i) => {
    const t = o.trim();
    if (!t) return;
    if (correct.includes(i)) idx.push(kept.length);
    kept.push(t);
  });
  return { options: kept, correctIndexes: idx };
}

/** Drops empty options and maps the correct index onto the kept ones (-1 if it pointed at
 * an empty slot). Mirrors quizadmin.Options on the server. */
export function keptOptions(options: string[], correct: number): { options: string[]; correctIndex: number } {
  const kept: string[] = [];
  let idx = -1;
  options.forEach((o, i) => {
    const t = o.trim();
    if (!t) return;
    if (i === correct) idx = kept.length;
    kept.push(t);
  });
  return { options: kept, correctIndex: idx };
}

export function QuestionFormDialog({ open, onOpenChange, mode, question, quiz, bank, onSaved }: {
  open: boolean;
  onOpenChange: (v: boolean) => void;
  mode: QuestionFormMode;
  question?: Question | null;
  quiz?: AdminQuiz | null;
  bank?: Question[] | null; // the questions a family link may point at
  onSaved: () => void;
}) {
  const [v, setV] = useState<Values>(() => initialValues(question));
  const [busy, setBusy] = useState(false);
  // the form starts afresh each time the dialog opens
  const [seen, setSeen] = useState({ open, question });
  if (open !== seen.open || question !== seen.question) {
    setSeen({ open, question });
    if (open) setV(initialValues(question));
  }
  const set = <K extends keyof Values>(k: K, val: Values[K]) => setV((p) => ({ ...p, [k]: val }));

  const fallback = mode === 'edit' ? 'Failed to update question' : mode === 'quiz' ? 'Failed to create question for quiz' : 'Failed to create question';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'quiz' && !quiz) {
      toastError('No quiz selected');
      return;
    }
    const common = { text: v.text, difficulty: v.difficulty, explanation: v.explanation, topic: v.topic, category: v.category };
    let body: Record<string, unknown>;
    if (v.multiple) {
      const kept = keptMultiple(v.options, v.correctIndexes);
      if (kept.options.length < 2) {
        toastError('Please provide at least 2 answer options');
        return;
      }
      if (kept.correctIndexes.length < 1 || kept.correctIndexes.length > kept.options.length - 1) {
        toastError(`Mark from 1 to ${kept.options.length - 1} correct answers (one fewer than the options).`);
        return;
      }
      body = { ...common, type: 'multiple', options: kept.options, correctIndexes: kept.correctIndexes, showCount: v.showCount };
    } else {
      const kept = keptOptions(v.options.slice(0, SLOTS), v.correctIndex);
      if (kept.options.length < 2) {
        toastError('Please provide at least 2 answer options');
        return;
      }
      if (kept.correctIndex < 0 || kept.correctIndex >= kept.options.length) {
        toastError('Please select a valid correct answer');
        return;
      }
      body = { ...common, type: 'single', options: kept.options, correctIndex: kept.correctIndex };
    }
    if (bank) body.familyOf = v.familyOf || null;
    if (mode === 'quiz' && quiz) body.quizId = quiz._id;
    setBusy(true);
    try {
      if (mode === 'edit' && question) {
        await api(`/admin/questions/${question._id}`, { method: 'PUT', body });
        toastSuccess('Question updated successfully');
      } else {
        await api('/admin/questions', { method: 'POST', body });
        toastSuccess(mode === 'quiz' ? 'Question created and added to quiz successfully' : 'Question created successfully');
      }
      onSaved();
      onOpenChange(false);
    } catch (err) {
      toastFail(err, fallback);
    } finally {
      setBusy(false);
    }
  };

  const title = mode === 'edit' ? 'Edit Question' : mode === 'quiz' ? 'Create Question for Quiz' : 'Create Question';
  const used = question?.quizzes?.length ?? 0;
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {mode === 'quiz' && quiz
              ? `Added to “${quiz.title}”. Topic and category default to ${quiz.badge.name} and ${quiz.badge.category}.`
              : mode === 'edit' && used > 0
                ? `Used in ${used === 1 ? '1 quiz' : `${used} quizzes`}: the change applies to every quiz using it.`
                : 'Questions live in the bank and can be added to any quiz.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" data-testid="question-form">
          <Field label="Question" htmlFor="question-text">
            <Textarea id="question-text" value={v.text} onChange={(e) => set('text', e.target.value)} required maxLength={1000} rows={3} placeholder="What does useEffect do?" />
          </Field>
          <Field label="Type" htmlFor="question-type">
            <NativeSelect id="question-type" value={v.multiple ? 'multiple' : 'single'} onChange={(e) => set('multiple', e.target.value === 'multiple')} data-testid="question-type-select">
              <option value="single">Single choice</option>
              <option value="multiple">Multiple response (select all that apply)</option>
            </NativeSelect>
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Answer options</legend>
            <p className="-mt-1 mb-1 text-xs text-muted-foreground">
              {v.multiple ? 'Fill at least the first two and tick every correct answer (not all of them).' : 'Fill at least the first two and mark the correct answer.'}
            </p>
            {v.options.slice(0, v.multiple ? MULTI_SLOTS : SLOTS).map((o, i) => {
              const on = v.multiple ? v.correctIndexes.includes(i) : v.correctIndex === i;
              return (
              <div key={i} className={cn('flex items-center gap-2 rounded-md', on && 'ring-2 ring-success/40')}>
                <input
                  type={v.multiple ? 'checkbox' : 'radio'}
                  name="correct"
                  className="h-4 w-4 shrink-0 accent-[var(--success)]"
                  checked={on}
                  onChange={() =>
                    v.multiple
                      ? set('correctIndexes', on ? v.correctIndexes.filter((x) => x !== i) : [...v.correctIndexes, i])
                      : set('correctIndex', i)
                  }
                  aria-label={`Option ${i + 1} is correct`}
                  data-testid={`correct-${i}`}
                />
                <Input
                  value={o}
                  onChange={(e) => {
                    const next = [...v.options];
                    next[i] = e.target.value;
                    set('options', next);
                  }}
                  required={i < 2}
                  maxLength={300}
                  placeholder={i < 2 ? `Option ${i + 1}` : `Option ${i + 1} (optional)`}
                  aria-label={`Option ${i + 1}`}
                  data-testid={`option-${i}`}
                />
              </div>
              );
            })}
            {v.multiple && (
              <label className="mt-1 flex items-center gap-2 text-sm">
                <input type="checkbox" className="h-4 w-4" checked={v.showCount} onChange={(e) => set('showCount', e.target.checked)} data-testid="question-show-count" />
                Tell members how many to pick
              </label>
            )}
          </fieldset>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <Field label="Difficulty" htmlFor="question-difficulty">
              <NativeSelect id="question-difficulty" value={v.difficulty} onChange={(e) => set('difficulty', e.target.value)}>
                {DIFFICULTIES.map((d) => (
                  <option key={d} value={d}>
                    {capitalize(d)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Topic" htmlFor="question-topic">
              <Input id="question-topic" value={v.topic} onChange={(e) => set('topic', e.target.value)} maxLength={100} placeholder={mode === 'quiz' && quiz ? quiz.badge.name : 'e.g. Hooks'} />
            </Field>
            <Field label="Category" htmlFor="question-category">
              <Input id="question-category" value={v.category} onChange={(e) => set('category', e.target.value)} maxLength={60} placeholder={mode === 'quiz' && quiz ? quiz.badge.category : 'General'} />
            </Field>
          </div>
          {bank && (
            <Field label="Family" htmlFor="question-family" hint="A variant of, or an item that gives away, another question: a form never holds two of one family.">
              <NativeSelect id="question-family" value={v.familyOf} onChange={(e) => set('familyOf', e.target.value)} data-testid="question-family">
                <option value="">In no family</option>
                {bank
                  .filter((b) => b._id !== question?._id)
                  .map((b) => (
                    <option key={b._id} value={b._id}>
                      {b.text.length > 80 ? `${b.text.slice(0, 80)}…` : b.text}
                    </option>
                  ))}
              </NativeSelect>
            </Field>
          )}
          <Field label="Explanation" htmlFor="question-explanation" hint="Shown to people after they submit the quiz.">
            <Textarea id="question-explanation" value={v.explanation} onChange={(e) => set('explanation', e.target.value)} maxLength={2000} rows={2} />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} data-testid="question-form-submit">
              {busy ? 'Saving…' : mode === 'edit' ? 'Save Changes' : mode === 'quiz' ? 'Create and Add' : 'Create Question'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
