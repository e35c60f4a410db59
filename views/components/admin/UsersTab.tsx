// User Management tab: stats, a server-side search over name, email, position, badge name
// and verification ids, one card per user with photo upload, the edit dialog (including
// role) and the user's badge grants with copyable verification ids, their state (revoked with
// the reason, expiry) and the Revoke and Set expiry actions.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import Fingerprint from 'lucide-react/icons/fingerprint';
import Users from 'lucide-react/icons/users';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Skeleton } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { Pager, SearchBox } from './list';
import { AdminUser, GrantAction, UserList } from './users/model';
import { UserCard } from './users/UserCard';
import { EditDialog, ExpiryDialog, RevokeDialog } from './users/dialogs';
import type { DashboardView } from './view';

const LIMIT = 12;

function Stat({ label, value, icon }: { label: string; value: number | string; icon: ReactNode }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-card p-4">
      <span className="flex h-9 w-9 items-center justify-center rounded-md bg-primary/10 text-primary" aria-hidden="true">
        {icon}
      </span>
      <div>
        <p className="text-xs text-muted-foreground">{label}</p>
        <p className="text-xl font-bold tabular-nums">{value}</p>
      </div>
    </div>
  );
}

type Props = { currentUserId?: string; refreshKey?: number; onChanged?: () => void; view?: DashboardView; onView?: (v: DashboardView) => void };

export function UsersTab({ currentUserId = '', refreshKey = 0, onChanged, view = {}, onView }: Props) {
  const [query, setQuery] = useState(view.q || '');
  const [page, setPage] = useState(view.page || 1);
  const [list, setList] = useState<UserList | null>(null);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [acting, setActing] = useState<GrantAction | null>(null);
  const seq = useRef(0);
  // a deep link's user, until the list that should hold them has loaded
  const [linked, setLinked] = useState(view.user);
  const linkedRef = useRef(view.user);
  // the address follows the search, the page and the user being edited
  useEffect(() => {
    onView?.({ q: query || undefined, page: page > 1 ? page : undefined, user: editing?._id ?? linked });
  }, [query, page, editing?._id, linked]); // eslint-disable-line react-hooks/exhaustive-deps -- onView is a new function each render

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const qs = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
      if (query) qs.set('search', query);
      const res = await api<UserList>('/admin/users?' + qs.toString());
      if (mine !== seq.current) return;
      setList(res);
      // a deep link to a user on this page opens their edit dialog
      const id = linkedRef.current;
      linkedRef.current = undefined;
      const u = id ? res.users.find((x) => x._id === id) : undefined;
      if (u) setEditing(u);
      setLinked(undefined);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch users'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [page, query]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const replace = (u: AdminUser) => setList((l) => (l ? { ...l, users: l.users.map((x) => (x._id === u._id ? u : x)) } : l));

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>User Management</CardTitle>
            <CardDescription className="mt-1.5">Edit members and administrators, their pictures and roles, and look up their badges.</CardDescription>
          </div>
          <SearchBox
            label="Search users"
            initial={view.q}
            placeholder="Name, email, position, badge or verification ID"
            onSearch={(q) => {
              setQuery(q);
              setPage(1);
            }}
          />
        </div>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="user-stats">
          <Stat label="Total users" value={list?.stats.totalUsers ?? '—'} icon={<Users className="h-4 w-4" />} />
          <Stat label="Total badges earned" value={list?.stats.totalBadgesEarned ?? '—'} icon={<Award className="h-4 w-4" />} />
          <Stat label="Verification IDs" value={list?.stats.verificationIds ?? '—'} icon={<Fingerprint className="h-4 w-4" />} />
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {loading && !list ? (
          [0, 1, 2].map((i) => <Skeleton key={i} className="h-32 w-full" />)
        ) : !list || list.users.length === 0 ? (
          <div className="rounded-lg border border-dashed py-12 text-center">
            <Users className="mx-auto h-10 w-10 text-muted-foreground/60" aria-hidden="true" />
            <p className="mt-3 font-medium">No users found</p>
            <p className="mt-1 text-sm text-muted-foreground">{query ? `Nothing matches “${query}”.` : 'Users appear here once they sign up.'}</p>
          </div>
        ) : (
          <div className="grid grid-cols-1 gap-3 lg:grid-cols-2" aria-busy={loading}>
            {list.users.map((u) => (
              <UserCard
                key={u._id}
                u={u}
                self={u._id === currentUserId}
                onEdit={() => setEditing(u)}
                onPicture={(url) => replace({ ...u, profilePicUrl: url })}
                onGrant={(kind, grant) => setActing({ kind, user: u, grant })}
              />
            ))}
          </div>
        )}
        <Pager info={list} busy={loading} onPage={setPage} />
      </CardContent>
      <EditDialog
        user={editing}
        self={editing?._id === currentUserId}
        onClose={() => setEditing(null)}
        onSaved={(u) => {
          replace(u);
          setEditing(null);
          onChanged?.();
        }}
      />
      <RevokeDialog
        action={acting?.kind === 'revoke' ? acting : null}
        onClose={() => setActing(null)}
        onDone={() => {
          setActing(null);
          load();
          onChanged?.();
        }}
      />
      <ExpiryDialog
        action={acting?.kind === 'expiry' ? acting : null}
        onClose={() => setActing(null)}
        onDone={() => {
          setActing(null);
          load();
          onChanged?.();
        }}
      />
    </Card>
  );
}
