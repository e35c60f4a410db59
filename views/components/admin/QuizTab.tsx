// Quiz Management tab with four sub-tabs: overview, badge-selector, quiz-management and
// question-bank.
import { useCallback, useEffect, useMemo, useState } from 'react';
import Activity from 'lucide-react/icons/activity';
import BookOpen from 'lucide-react/icons/book-open';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import CircleDashed from 'lucide-react/icons/circle-dashed';
import ClipboardList from 'lucide-react/icons/clipboard-list';
import Divide from 'lucide-react/icons/divide';
import ListChecks from 'lucide-react/icons/list-checks';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../tabs';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip } from '../ui';
import { BadgeIcon, priceLabel } from '../badges';
import { api } from '../../lib/api';
import { capitalize, plural } from '../../lib/format';
import { cn } from '../../lib/cn';
import { CATEGORIES, CardsSkeleton, NativeSelect, SearchInput, SectionHeader, StatCard, toastFail, type AdminBadge, type AdminQuiz, type Question } from './BadgeAdminKit';
import { EmptyState } from '../ui/empty-state';
import { QuizManager } from './QuizManager';
import { QuestionBank } from './QuestionBank';
import { LocalTime } from '../LocalTime';

/** Number of recent quizzes on the overview (spec section 9). */
const RECENT_QUIZZES = 5;

function Overview({ quizzes, questions, onOpen }: { quizzes: AdminQuiz[] | null; questions: Question[] | null; onOpen: (badgeId: string) => void }) {
  const total = quizzes?.length ?? 0;
  const active = quizzes?.filter((q) => q.isActive).length ?? 0;
  const linked = quizzes?.reduce((n, q) => n + q.questionCount, 0) ?? 0;
  const avg = total ? (linked / total).toFixed(1) : '0';
  const recent = (quizzes ?? []).slice(0, RECENT_QUIZZES); // newest first from the server
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4 sm:gap-4">
        <StatCard label="Total Quizzes" value={quizzes ? total : '–'} icon={ClipboardList} testId="stat-total-quizzes" />
        <StatCard label="Active Quizzes" value={quizzes ? active : '–'} icon={Activity} tone="success" />
        <StatCard label="Total Questions" value={questions ? questions.length : '–'} icon={BookOpen} hint="In the question bank" />
        <StatCard label="Avg. Questions / Quiz" value={quizzes ? avg : '–'} icon={Divide} tone="muted" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Recent Quizzes</CardTitle>
          <CardDescription>The {RECENT_QUIZZES} most recently created quizzes.</CardDescription>
        </CardHeader>
        <CardContent>
          {quizzes === null ? (
            <div className="h-24 animate-pulse rounded-lg bg-muted" />
          ) : recent.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">No quizzes yet. Select a skill badge to create its quiz.</p>
          ) : (
            <ul className="divide-y" data-testid="recent-quizzes">
              {recent.map((q) => (
                <li key={q._id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{q.title}</p>
                    <p className="text-sm text-muted-foreground">
                      {q.badge.name} · {plural(q.questionCount, 'question')} · pass {q.passingScore}% · {q.timeLimit} min · <LocalTime iso={q.createdAt} />
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <Chip tone={q.isActive ? 'success' : 'secondary'}>{q.isActive ? 'Active' : 'Inactive'}</Chip>
                    <Button size="sm" variant="outline" onClick={() => onOpen(q.badge._id)}>
                      Manage
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function BadgeSelector({ badges, selectedId, onSelect }: { badges: AdminBadge[] | null; selectedId: string | null; onSelect: (id: string) => void }) {
  const [search, setSearch] = useState('');
  const [quizFilter, setQuizFilter] = useState('all');
  const [category, setCategory] = useState('all');
  const skill = useMemo(() => (badges ?? []).filter((b) => b.type === 'skill'), [badges]);
  const withQuiz = skill.filter((b) => b.quiz).length;
  const q = search.trim().toLowerCase();
  const shown = skill.filter(
    (b) =>
      (!q || `${b.name} ${b.description}`.toLowerCase().includes(q)) &&
      (category === 'all' || b.category === category) &&
      (quizFilter === 'all' || (quizFilter === 'with' ? !!b.quiz : !b.quiz)),
  );
  return (
    <div className="grid gap-5">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4 sm:gap-4">
        <StatCard label="Skill Badges" value={badges ? skill.length : '–'} icon={ListChecks} />
        <StatCard label="With a Quiz" value={badges ? withQuiz : '–'} icon={CheckCircle2} tone="success" />
        <StatCard label="Need a Quiz" value={badges ? skill.length - withQuiz : '–'} icon={CircleDashed} tone="warning" />
        <StatCard label="Active Skill Badges" value={badges ? skill.filter((b) => b.isActive).length : '–'} icon={Activity} tone="muted" />
      </div>
      <div className="flex flex-col gap-3 md:flex-row">
        <SearchInput value={search} onChange={setSearch} placeholder="Search skill badges" label="Search skill badges" className="md:flex-1" />
        <NativeSelect aria-label="Type" value={quizFilter} onChange={(e) => setQuizFilter(e.target.value)} className="md:w-48">
          <option value="all">All skill badges</option>
          <option value="with">With a quiz</option>
          <option value="without">Without a quiz</option>
        </NativeSelect>
        <NativeSelect aria-label="Category" value={category} onChange={(e) => setCategory(e.target.value)} className="md:w-48">
          <option value="all">All categories</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
      </div>
      {badges === null ? (
        <CardsSkeleton />
      ) : shown.length === 0 ? (
        <EmptyState icon={ListChecks} title="No skill badges found" description={skill.length === 0 ? 'Create a skill badge in Badge Management first.' : 'Try another search or filter.'} />
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 lg:grid-cols-3" data-testid="skill-badges">
          {shown.map((b) => (
            <button
              key={b._id}
              type="button"
              onClick={() => onSelect(b._id)}
              data-testid="select-badge"
              data-badge-name={b.name}
              aria-pressed={selectedId === b._id}
              className={cn(
                'flex items-start gap-3 rounded-xl border bg-card p-4 text-left shadow-sm transition-colors hover:border-primary/50 hover:bg-accent/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                selectedId === b._id && 'border-primary ring-2 ring-primary/30',
              )}
            >
              <BadgeIcon icon={b.icon} color={b.color} />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold">{b.name}</span>
                <span className="block text-sm text-muted-foreground">
                  {b.category} · {capitalize(b.level)} · {priceLabel(b.price)}
                </span>
                <span className="mt-2 flex flex-wrap gap-1.5">
                  <Chip tone={b.quiz ? 'success' : 'warning'}>{b.quiz ? plural(b.quiz.questionCount, 'question') : 'No quiz yet'}</Chip>
                  {!b.isActive && <Chip tone="secondary">Inactive</Chip>}
                </span>
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export function QuizTab() {
  const [tab, setTab] = useState('overview');
  const [badges, setBadges] = useState<AdminBadge[] | null>(null);
  const [quizzes, setQuizzes] = useState<AdminQuiz[] | null>(null);
  const [questions, setQuestions] = useState<Question[] | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  const load = useCallback(async () => {
    setRefreshing(true);
    await Promise.all([
      api<AdminBadge[]>('/admin/badges').then(setBadges, (e) => {
        toastFail(e, 'Failed to fetch badges');
        setBadges((b) => b ?? []);
      }),
      api<AdminQuiz[]>('/admin/quizzes').then(setQuizzes, (e) => {
        toastFail(e, 'Failed to fetch quizzes');
        setQuizzes((q) => q ?? []);
      }),
      api<Question[]>('/admin/questions').then(setQuestions, (e) => {
        toastFail(e, 'Failed to fetch questions');
        setQuestions((q) => q ?? []);
      }),
    ]);
    setRefreshing(false);
  }, []);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load]);

  const selected = badges?.find((b) => b._id === selectedId && b.type === 'skill') ?? null;
  const quiz = selected ? (quizzes?.find((q) => q.badge._id === selected._id) ?? null) : null;
  const open = (badgeId: string) => {
    setSelectedId(badgeId);
    setTab('quiz-management');
  };

  return (
    <div className="grid grid-cols-1 gap-6" data-testid="quiz-tab">
      <SectionHeader
        title="Quiz Management"
        description="One quiz per skill badge, built from a shared question bank."
        actions={
          <Button variant="outline" onClick={load} disabled={refreshing}>
            <RefreshCw className={cn(refreshing && 'animate-spin')} /> Refresh
          </Button>
        }
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="h-auto w-full justify-start sm:w-auto">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="badge-selector">Select Badge</TabsTrigger>
          <TabsTrigger value="quiz-management">Manage Quiz</TabsTrigger>
          <TabsTrigger value="question-bank">Question Bank</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <Overview quizzes={quizzes} questions={questions} onOpen={open} />
        </TabsContent>
        <TabsContent value="badge-selector">
          <BadgeSelector badges={badges} selectedId={selectedId} onSelect={open} />
        </TabsContent>
        <TabsContent value="quiz-management">
          {badges === null || quizzes === null ? (
            <CardsSkeleton n={2} />
          ) : (
            <QuizManager badge={selected} quiz={quiz} bank={questions ?? []} onChanged={load} onChooseBadge={() => setTab('badge-selector')} />
          )}
        </TabsContent>
        <TabsContent value="question-bank">
          <QuestionBank questions={questions} onChanged={load} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
