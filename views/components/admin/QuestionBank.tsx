// Quiz Management › question-bank: search by text, category or topic; create; edit; retire
// or bring back; delete with confirmation (deleting also removes the question from the
// quizzes using it). The server filters, pages and sorts the bank: a dense table on wide
// screens (sortable columns, page size, Export CSV of the filter, without the answers)
// whose row opens the question in a side panel, cards on phones or by choice.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Archive from 'lucide-react/icons/archive';
import ArchiveRestore from 'lucide-react/icons/archive-restore';
import BookOpen from 'lucide-react/icons/book-open';
import Pencil from 'lucide-react/icons/pencil';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { Button, Card, Chip } from '../ui';
import { api } from '../../lib/api';
import { capitalize } from '../../lib/format';
import { cn } from '../../lib/cn';
import { CardsSkeleton, DIFFICULTIES, NativeSelect, toastFail, toastSuccess, type Question } from './BadgeAdminKit';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState } from '../ui/empty-state';
import { QuestionFormDialog } from './QuestionFormDialog';
import { QuestionOptions, difficultyTone } from './QuizManager';
import { LocalTime } from '../LocalTime';
import { SidePanel } from './SidePanel';
import { SearchBox, type PageInfo } from './list';
import { ExportLink, FilterChips, LayoutToggle, OpenRowButton, PageSizeSelect, SortHeader, TH as th, TablePager, rowOpener, useLayout, type SortState } from './table';

const PAGE_SIZE = 25;
const LAYOUT_KEY = 'meritmark.admin.questions.view';

type BankList = PageInfo & { questions: Question[]; pageSize: number };

const STATUSES: [string, string][] = [
  ['all', 'All'],
  ['active', 'In use'],
  ['retired', 'Retired'],
];

/** A question's text cut for a label or a title. */
function short(text: string, n = 60) {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

/** "In SQL Data Analyst, …" or "Not in any quiz". */
function usedIn(q: Question) {
  return q.quizzes && q.quizzes.length > 0 ? `In ${q.quizzes.map((z) => z.badgeName).join(', ')}` : 'Not in any quiz';
}

/** The question's chips: difficulty, category, topic, retired, family. */
function QuestionChips({ q, bank }: { q: Question; bank: Question[] | null }) {
  return (
    <div className="mt-1.5 flex flex-wrap gap-1.5">
      <Chip tone={difficultyTone(q.difficulty)}>{capitalize(q.difficulty)}</Chip>
      <Chip tone="outline">{q.category}</Chip>
      {q.topic && <Chip tone="outline">{q.topic}</Chip>}
      {q.retired && <Chip tone="warning">Retired</Chip>}
      {q.family && (
        <Chip tone="secondary" title="Never on one form with another question of its family" data-testid="bank-family">
          Family: {familyName(bank, q.family)}
        </Chip>
      )}
    </div>
  );
}

type RowActions = {
  retiring: string | null;
  onEdit: (q: Question) => void;
  onRetire: (q: Question) => void;
  onDelete: (q: Question) => void;
};

/** The bank as a dense table: a question's text opens the side panel (with its options, key
 * and explanation); Edit and Delete act on the row. */
function BankTable({ questions, sort, onSort, onOpen, onEdit, onDelete }: Omit<RowActions, 'retiring' | 'onRetire'> & {
  questions: Question[];
  sort: SortState;
  onSort: (s: SortState) => void;
  onOpen: (q: Question) => void;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border">
      <table className="w-full table-fixed border-collapse text-sm" data-testid="question-bank-table">
        <caption className="sr-only">The question bank. Column headers sort; a question opens its details.</caption>
        <colgroup>
          <col />
          <col className="w-32" />
          <col className="w-28" />
          <col className="w-28" />
          <col className="w-24" />
          <col className="w-24" />
          <col className="w-28" />
          <col className="w-20" />
        </colgroup>
        <thead className="bg-muted/50">
          <tr>
            <SortHeader label="Question" sortKey="text" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Category" sortKey="category" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Topic" sortKey="topic" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Difficulty" sortKey="difficulty" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Quizzes" sortKey="quizzes" sort={sort} onSort={onSort} className={cn(th, 'text-right')} />
            <th scope="col" className={th}>Status</th>
            <SortHeader label="Added" sortKey="createdAt" sort={sort} onSort={onSort} firstDesc className={th} />
            <th scope="col" className={th}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {questions.map((q) => (
            <tr key={q._id} onClick={rowOpener(() => onOpen(q))} className={cn('cursor-pointer border-t hover:bg-accent/50', q.retired && 'text-muted-foreground')} data-testid="bank-question-row" data-id={q._id}>
              <td className="px-3 py-1" title={q.text}>
                <OpenRowButton onOpen={() => onOpen(q)}>{q.text}</OpenRowButton>
              </td>
              <td className="truncate px-3 py-1.5" title={q.category}>{q.category}</td>
              <td className="truncate px-3 py-1.5" title={q.topic || undefined}>{q.topic || '—'}</td>
              <td className="whitespace-nowrap px-3 py-1.5">
                <Chip tone={difficultyTone(q.difficulty)}>{capitalize(q.difficulty)}</Chip>
              </td>
              <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums" title={usedIn(q)} data-testid="bank-quiz-count">
                {q.quizzes?.length ?? 0}
              </td>
              <td className="whitespace-nowrap px-3 py-1.5">
                {q.retired ? <Chip tone="warning">Retired</Chip> : <Chip tone="success">In use</Chip>}
              </td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground"><LocalTime iso={q.createdAt} /></td>
              <td className="whitespace-nowrap px-3 py-1">
                <div className="flex items-center justify-end gap-1">
                  <Button variant="ghost" size="icon" className="h-8 w-8" aria-label={`Edit question: ${short(q.text, 40)}`} onClick={() => onEdit(q)}>
                    <Pencil />
                  </Button>
                  <Button variant="ghost" size="icon" className="h-8 w-8 text-destructive hover:text-destructive" aria-label={`Delete question: ${short(q.text, 40)}`} onClick={() => onDelete(q)}>
                    <Trash2 />
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Edit, Retire or Bring back, Delete: under a card and in the side panel. */
function QuestionActions({ q, retiring, onEdit, onRetire, onDelete, labelled = false }: RowActions & { q: Question; labelled?: boolean }) {
  const busy = retiring === q._id;
  if (labelled)
    return (
      <div className="mt-5 flex flex-wrap gap-2 border-t pt-4">
        <Button variant="outline" onClick={() => onEdit(q)} data-testid="panel-edit-question">
          <Pencil /> Edit
        </Button>
        <Button variant="outline" onClick={() => onRetire(q)} disabled={busy} data-testid="panel-retire-question">
          {q.retired ? <ArchiveRestore /> : <Archive />} {busy ? 'Saving…' : q.retired ? 'Bring back' : 'Retire'}
        </Button>
        <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => onDelete(q)} data-testid="panel-delete-question">
          <Trash2 /> Delete
        </Button>
      </div>
    );
  return (
    <div className="flex shrink-0 flex-col gap-1 sm:flex-row">
      <Button variant="ghost" size="icon" aria-label="Edit question" onClick={() => onEdit(q)}>
        <Pencil />
      </Button>
      <Button variant="ghost" size="icon" aria-label={q.retired ? 'Bring the question back' : 'Retire question'} disabled={busy} onClick={() => onRetire(q)}>
        {q.retired ? <ArchiveRestore /> : <Archive />}
      </Button>
      <Button variant="ghost" size="icon" aria-label="Delete question" className="text-destructive hover:text-destructive" onClick={() => onDelete(q)}>
        <Trash2 />
      </Button>
    </div>
  );
}

export function QuestionBank({ questions, onChanged }: { questions: Question[] | null; onChanged: () => void }) {
  const [list, setList] = useState<BankList | null>(null);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('all');
  const [difficulty, setDifficulty] = useState('all');
  const [status, setStatus] = useState('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [sort, setSort] = useState<SortState>('');
  const [layout, chooseLayout] = useLayout(LAYOUT_KEY);
  const [openId, setOpenId] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<Question | null>(null);
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Question | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [retiring, setRetiring] = useState<string | null>(null);
  const seq = useRef(0);

  // the filter's query, as the list and the export send it
  const filter = useMemo(() => {
    const f: Record<string, string> = { search, category: category === 'all' ? '' : category, difficulty: difficulty === 'all' ? '' : difficulty, status: status === 'all' ? '' : status };
    return f;
  }, [search, category, difficulty, status]);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    try {
      let q = `page=${page}&pageSize=${pageSize}`;
      for (const [k, v] of Object.entries(filter)) if (v) q += `&${k}=${encodeURIComponent(v)}`;
      if (sort) q += `&sort=${sort}`;
      const res = await api<BankList>(`/admin/questions?${q}`);
      if (n === seq.current) {
        setList(res);
        // the last page emptied (its last question deleted): step back to the new last page
        if (res.questions.length === 0 && res.total > 0 && page > 1) setPage(res.totalPages);
      }
    } catch (e) {
      if (n === seq.current) {
        toastFail(e, 'Failed to fetch questions');
        setList((l) => l ?? { questions: [], page: 1, limit: pageSize, pageSize, total: 0, totalPages: 0 });
      }
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, [filter, page, pageSize, sort]);

  // the list follows the filters, the page and the sort, and the bank's changes (the
  // Refresh button and every change reload the whole bank the other screens read)
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, questions]);

  // a new search, filter, sort or page size starts from the first page
  const again = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  // the categories the bank holds (any case counts once), for the filter
  const categories = useMemo(() => {
    const seen = new Map<string, string>();
    for (const q of questions ?? []) if (!seen.has(q.category.toLowerCase())) seen.set(q.category.toLowerCase(), q.category);
    return [...seen.values()].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
  }, [questions]);

  const retire = async (q: Question) => {
    const retired = !q.retired;
    setRetiring(q._id);
    try {
      const r = await api<{ msg: string; question: Question }>(`/admin/questions/${q._id}/retired`, { method: 'PUT', body: { retired } });
      toastSuccess(r.msg);
      onChanged();
    } catch (e) {
      toastFail(e, retired ? 'Failed to retire the question' : 'Failed to bring the question back');
    } finally {
      setRetiring(null);
    }
  };

  const remove = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await api(`/admin/questions/${toDelete._id}`, { method: 'DELETE' });
      setList((l) => (l ? { ...l, questions: l.questions.filter((x) => x._id !== toDelete._id) } : l));
      toastSuccess('Question deleted successfully');
      setToDelete(null);
      onChanged();
    } catch (e) {
      toastFail(e, 'Failed to delete question');
    } finally {
      setDeleting(false);
    }
  };

  const rows = list?.questions ?? null;
  const shown = rows?.find((q) => q._id === openId) ?? null;
  const table = layout === 'table' && !!rows && rows.length > 0;
  const filtered = !!(search || category !== 'all' || difficulty !== 'all' || status !== 'all');
  const actions: RowActions = { retiring, onEdit: setEditing, onRetire: retire, onDelete: setToDelete };
  const deleteUsedIn = toDelete?.quizzes?.length ?? 0;
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="question-bank">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox placeholder="Search by text, category or topic" label="Search questions" onSearch={again(setSearch)} />
        <Button onClick={() => setCreating(true)} data-testid="create-bank-question">
          <Plus /> Create Question
        </Button>
      </div>
      <div className="flex flex-col gap-3 md:flex-row md:flex-wrap md:items-center">
        <FilterChips label="Status" testid="bank-status-filter" options={STATUSES} value={status} onChange={again(setStatus)} />
        <NativeSelect aria-label="Category" value={category} onChange={(e) => again(setCategory)(e.target.value)} className="md:w-48" data-testid="bank-category-filter">
          <option value="all">All categories</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect aria-label="Difficulty" value={difficulty} onChange={(e) => again(setDifficulty)(e.target.value)} className="md:w-44" data-testid="bank-difficulty-filter">
          <option value="all">All difficulties</option>
          {DIFFICULTIES.map((d) => (
            <option key={d} value={d}>
              {capitalize(d)}
            </option>
          ))}
        </NativeSelect>
        <div className="flex flex-wrap items-center gap-3 md:ml-auto">
          <div className="hidden lg:block" data-testid="table-toolbar">
            <LayoutToggle layout={layout} onChange={chooseLayout} />
          </div>
          <ExportLink path="/admin/questions" params={{ ...filter, sort }} />
        </div>
      </div>

      <div className="space-y-3">
        {table && (
          <div aria-busy={loading} className="hidden lg:block">
            <BankTable questions={rows} sort={sort} onSort={again(setSort)} onOpen={(q) => setOpenId(q._id)} onEdit={setEditing} onDelete={setToDelete} />
          </div>
        )}
        <div aria-busy={loading} className={cn(table && 'lg:hidden')}>
          {rows === null ? (
            <CardsSkeleton n={2} />
          ) : rows.length === 0 ? (
            <EmptyState
              icon={BookOpen}
              title={filtered ? 'No questions match' : 'The question bank is empty'}
              description={filtered ? 'Try another word, category, topic or filter.' : 'Create questions here or from a quiz.'}
            />
          ) : (
            <div className="grid gap-3" data-testid="bank-question-list">
              {rows.map((q) => (
                <Card key={q._id} className="p-4" data-testid="bank-question">
                  <div className="flex items-start gap-3">
                    <div className="min-w-0 flex-1">
                      <p className="break-words font-medium">{q.text}</p>
                      <QuestionChips q={q} bank={questions} />
                      <QuestionOptions q={q} />
                      <p className="mt-2 text-xs text-muted-foreground">
                        {usedIn(q)} · Added <LocalTime iso={q.createdAt} />
                      </p>
                    </div>
                    <QuestionActions q={q} {...actions} />
                  </div>
                </Card>
              ))}
            </div>
          )}
        </div>
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="bank-page-size" value={pageSize} onChange={again(setPageSize)} />
        </TablePager>
      </div>

      <SidePanel item={shown} onClose={() => setOpenId(null)} id="bank-question" title="Question details" description={(q) => `${capitalize(q.difficulty)} · ${q.category}${q.topic ? ` · ${q.topic}` : ''}`}>
        {(q) => (
          <div className="flex flex-col" data-testid="bank-question-panel" data-id={q._id}>
            <p className="whitespace-pre-line break-words font-medium">{q.text}</p>
            <QuestionChips q={q} bank={questions} />
            <QuestionOptions q={q} />
            {q.explanation && (
              <div className="mt-3 rounded-md bg-muted px-3 py-2 text-sm">
                <p className="text-xs font-medium text-muted-foreground">Explanation</p>
                <p className="mt-0.5 whitespace-pre-line break-words">{q.explanation}</p>
              </div>
            )}
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Type</dt>
              <dd className="text-right">{q.type === 'multiple' ? 'Multiple response' : 'Single choice'}</dd>
              <dt className="text-muted-foreground">Options</dt>
              <dd className="text-right tabular-nums">{q.options.length}</dd>
              <dt className="text-muted-foreground">Status</dt>
              <dd className="text-right">{q.retired ? 'Retired: never drawn again' : 'In use'}</dd>
              <dt className="text-muted-foreground">Used in</dt>
              <dd className="text-right" data-testid="bank-panel-quizzes">
                {q.quizzes && q.quizzes.length > 0 ? q.quizzes.map((z) => z.badgeName).join(', ') : 'No quiz'}
              </dd>
              <dt className="text-muted-foreground">Added</dt>
              <dd className="text-right"><LocalTime iso={q.createdAt} withTime /></dd>
            </dl>
            <QuestionActions q={q} {...actions} labelled />
          </div>
        )}
      </SidePanel>

      <QuestionFormDialog open={creating} onOpenChange={setCreating} mode="create" bank={questions} onSaved={onChanged} />
      <QuestionFormDialog open={!!editing} onOpenChange={(o) => !o && setEditing(null)} mode="edit" question={editing} bank={questions} onSaved={onChanged} />
      <ConfirmDialog
        open={!!toDelete}
        onOpenChange={(o) => !o && setToDelete(null)}
        title="Delete this question?"
        description={
          deleteUsedIn > 0
            ? `It is used in ${deleteUsedIn === 1 ? '1 quiz' : `${deleteUsedIn} quizzes`} and will be removed from ${deleteUsedIn === 1 ? 'it' : 'them'}. This cannot be undone.`
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
  return short(q.text, 40);
}
