// Badge Management tab: stats, the list with activate/deactivate, edit, delete (with
// confirmation), 'Create Badge' and 'Quick Free Badge'.
import { useCallback, useEffect, useMemo, useState } from 'react';
import Award from 'lucide-react/icons/award';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import FileCheck2 from 'lucide-react/icons/file-check-2';
import Gift from 'lucide-react/icons/gift';
import ListChecks from 'lucide-react/icons/list-checks';
import Plus from 'lucide-react/icons/plus';
import { Button, Card, Chip } from '../ui';
import { BadgeIcon, priceLabel } from '../badges';
import { api } from '../../lib/api';
import { CardActions, CardsSkeleton, NativeSelect, SearchInput, SectionHeader, StatCard, toastFail, toastSuccess, type AdminBadge, type BadgeStats } from './BadgeAdminKit';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState } from '../ui/empty-state';
import { BADGE_DEFAULTS, BadgeFormDialog, QUICK_FREE_BADGE, badgeToForm, type BadgeFormMode, type BadgeFormValues } from './BadgeFormDialog';

import { capitalize, plural } from '../../lib/format';
type FormState = { mode: BadgeFormMode; initial: BadgeFormValues; id?: string } | null;

export function BadgesTab() {
  const [badges, setBadges] = useState<AdminBadge[] | null>(null);
  const [stats, setStats] = useState<BadgeStats | null>(null);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const [form, setForm] = useState<FormState>(null);
  const [toDelete, setToDelete] = useState<AdminBadge | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [toggling, setToggling] = useState<string | null>(null);

  const loadStats = useCallback(() => {
    api<BadgeStats>('/badge-management/stats').then(setStats, () => {}); // stats failures are silent
  }, []);
  const load = useCallback(async () => {
    try {
      setBadges(await api<AdminBadge[]>('/badge-management/badges'));
    } catch (e) {
      toastFail(e, 'Failed to fetch badges');
      setBadges((b) => b ?? []);
    }
    loadStats();
  }, [loadStats]);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load]);

  const replace = (b: AdminBadge) => {
    setBadges((list) => {
      const l = list ?? [];
      return l.some((x) => x._id === b._id) ? l.map((x) => (x._id === b._id ? b : x)) : [b, ...l];
    });
    loadStats();
  };

  // undo (on the toast, for a few seconds) switches it back; an undo offers no undo
  const toggle = async (b: AdminBadge, undoable = true): Promise<void> => {
    setToggling(b._id);
    try {
      const res = await api<{ badge: AdminBadge }>(`/badge-management/badges/${b._id}/toggle`, { method: 'PATCH' });
      replace(res.badge);
      toastSuccess('Badge status updated successfully', undoable ? () => toggle(res.badge, false) : undefined);
    } catch (e) {
      toastFail(e, 'Failed to update badge status');
    } finally {
      setToggling(null);
    }
  };

  const remove = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await api(`/badge-management/badges/${toDelete._id}`, { method: 'DELETE' });
      setBadges((l) => (l ?? []).filter((x) => x._id !== toDelete._id));
      loadStats();
      toastSuccess('Badge deleted successfully');
      setToDelete(null);
    } catch (e) {
      toastFail(e, 'Failed to delete badge');
    } finally {
      setDeleting(false);
    }
  };

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (badges ?? []).filter(
      (b) =>
        (status === 'all' || (status === 'active') === b.isActive) &&
        (!q || `${b.name} ${b.category} ${b.description}`.toLowerCase().includes(q)),
    );
  }, [badges, search, status]);

  const inUse = toDelete ? toDelete.grantCount + toDelete.applicationCount > 0 : false;

  return (
    <div className="grid grid-cols-1 gap-6" data-testid="badges-tab">
      <SectionHeader
        title="Badge Management"
        description="Create, edit, publish and retire the badges people can earn."
        actions={
          <>
            <Button variant="outline" onClick={() => setForm({ mode: 'quick', initial: QUICK_FREE_BADGE })}>
              <Gift /> Quick Free Badge
            </Button>
            <Button onClick={() => setForm({ mode: 'create', initial: BADGE_DEFAULTS })} data-testid="create-badge">
              <Plus /> Create Badge
            </Button>
          </>
        }
      />

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4 sm:gap-4">
        <StatCard label="Total Badges" value={stats?.totalBadges ?? '–'} icon={Award} testId="stat-total-badges" />
        <StatCard label="Active" value={stats?.activeBadges ?? '–'} icon={CheckCircle2} tone="success" testId="stat-active-badges" />
        <StatCard label="Skill Badges" value={stats?.skillBadges ?? '–'} icon={ListChecks} hint="Quiz based" />
        <StatCard label="Proof Badges" value={stats?.proofBadges ?? '–'} icon={FileCheck2} hint="Document based" />
      </div>

      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchInput value={search} onChange={setSearch} placeholder="Search badges by name or category" label="Search badges" className="sm:flex-1" />
        <NativeSelect aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value)} className="sm:w-44">
          <option value="all">All badges</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
        </NativeSelect>
      </div>

      {badges === null ? (
        <CardsSkeleton />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={Award}
          title={badges.length === 0 ? 'No badges yet' : 'No badges match'}
          description={badges.length === 0 ? 'Create the first badge people can earn.' : 'Try another search or status.'}
        />
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="badge-list">
          {shown.map((b) => (
            <Card key={b._id} className="flex flex-col p-5" data-testid="admin-badge" data-badge-name={b.name}>
              <div className="flex-1">
                <div className="flex items-start gap-3">
                  <BadgeIcon icon={b.icon} color={b.color} />
                  <div className="min-w-0 flex-1">
                    <h3 className="line-clamp-2 break-words font-semibold leading-snug" title={b.name}>
                      {b.name}
                    </h3>
                    <p className="text-sm text-muted-foreground">
                      {b.category} · {capitalize(b.level)}
                    </p>
                  </div>
                  <Chip tone={b.isActive ? 'success' : 'secondary'}>{b.isActive ? 'Active' : 'Inactive'}</Chip>
                </div>
                {b.description && <p className="mt-3 line-clamp-2 text-sm text-muted-foreground">{b.description}</p>}
                <div className="mt-3 flex flex-wrap gap-1.5">
                  <Chip tone="outline">{b.type === 'skill' ? 'Quiz Based' : 'Proof Based'}</Chip>
                  <Chip tone="outline">{priceLabel(b.price)}</Chip>
                  {b.type === 'skill' && (
                    <Chip tone={b.quiz && b.quiz.questionCount > 0 ? 'outline' : 'warning'}>
                      {b.quiz ? plural(b.quiz.questionCount, 'question') : 'No quiz yet'}
                    </Chip>
                  )}
                  {b.requiresResume && <Chip tone="outline">Resume</Chip>}
                </div>
                <p className="mt-3 text-xs text-muted-foreground">
                  {plural(b.grantCount, 'holder')} · {plural(b.openApplicationCount, 'open application')}
                  {b.createdBy ? ` · by ${b.createdBy.name}` : ''}
                </p>
              </div>
              <CardActions
                name={b.name}
                active={b.isActive}
                activeText="In catalogue"
                inactiveText="Hidden"
                busy={toggling === b._id}
                onToggle={() => toggle(b)}
                onEdit={() => setForm({ mode: 'edit', initial: badgeToForm(b), id: b._id })}
                onDelete={() => setToDelete(b)}
                toggleTestId="badge-active-toggle"
              />
            </Card>
          ))}
        </div>
      )}

      {form && (
        <BadgeFormDialog
          open={!!form}
          onOpenChange={(o) => !o && setForm(null)}
          mode={form.mode}
          initial={form.initial}
          badgeId={form.id}
          onSaved={replace}
        />
      )}

      {toDelete && inUse ? (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setToDelete(null)}
          title="This badge cannot be deleted"
          description={`${toDelete.name} has ${plural(toDelete.grantCount, 'holder')} and ${plural(toDelete.applicationCount, 'application')}. Deleting it would erase their records. ${
            toDelete.isActive ? 'Deactivate it instead to hide it from the catalogue; holders keep their credentials.' : 'It is already inactive, so nobody new can apply.'
          }`}
          confirmLabel={toDelete.isActive ? 'Deactivate Instead' : 'OK'}
          destructive={false}
          busy={toggling === toDelete._id}
          onConfirm={async () => {
            if (toDelete.isActive) await toggle(toDelete);
            setToDelete(null);
          }}
        />
      ) : (
        <ConfirmDialog
          open={!!toDelete}
          onOpenChange={(o) => !o && setToDelete(null)}
          title={`Delete ${toDelete?.name ?? 'badge'}?`}
          description={
            toDelete?.quiz
              ? 'This permanently deletes the badge and its quiz. The questions stay in the question bank. This cannot be undone.'
              : 'This permanently deletes the badge. This cannot be undone.'
          }
          confirmLabel="Delete Badge"
          busy={deleting}
          onConfirm={remove}
        />
      )}
    </div>
  );
}
