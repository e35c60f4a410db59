// User Management tab: stats, a server-side search over name, email, position, badge name
// and verification ids, and the users as a dense table on wide screens (sortable columns,
// a role filter, page size, CSV export) or as cards (phones, or by choice). A row opens the
// user in a side panel: photo upload, the edit dialog (including role) and the user's badge
// grants with copyable verification ids, their state and the Revoke and Set expiry actions.
// The address keeps the opened user (?tab=users&user=ID).
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import Fingerprint from 'lucide-react/icons/fingerprint';
import Pencil from 'lucide-react/icons/pencil';
import Users from 'lucide-react/icons/users';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Skeleton } from '../ui';
import { SidePanel } from './SidePanel';
import { api, errorMessage } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { SearchBox } from './list';
import { ExportLink, FilterChips, LayoutToggle, OpenRowButton, PageSizeSelect, SortHeader, TH as th, TablePager, rowOpener, useLayout, type SortState } from './table';
import { AdminUser, GrantAction, UserList } from './users/model';
import { UserCard } from './users/UserCard';
import { EditDialog, ExpiryDialog, RevokeDialog } from './users/dialogs';
import type { DashboardView } from './view';
import { LocalTime } from '../LocalTime';

const LIMIT = 25;
const LAYOUT_KEY = 'meritmark.admin.users.view';
const ROLES: [string, string][] = [
  ['all', 'All'],
  ['user', 'Members'],
  ['admin', 'Administrators'],
];

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

/** The users as a dense table: a name opens the side panel, Edit the edit dialog. */
function UsersTable({ users, currentUserId, sort, onSort, onOpen, onEdit }: {
  users: AdminUser[];
  currentUserId: string;
  sort: SortState;
  onSort: (s: SortState) => void;
  onOpen: (u: AdminUser) => void;
  onEdit: (u: AdminUser) => void;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border">
      <table className="w-full border-collapse text-sm" data-testid="users-table">
        <caption className="sr-only">Users. Column headers sort; a name opens the user’s details.</caption>
        <thead className="bg-muted/50">
          <tr>
            <SortHeader label="Name" sortKey="name" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="E-mail" sortKey="email" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Role" sortKey="role" sort={sort} onSort={onSort} className={th} />
            <th scope="col" className={th}>Position</th>
            <th scope="col" className={th + ' text-right'}>Badges</th>
            <SortHeader label="Joined" sortKey="createdAt" sort={sort} onSort={onSort} firstDesc className={th} />
            <th scope="col" className={th}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => {
            const held = u.badgeGrants.filter((g) => !g.revokedAt).length;
            return (
              <tr key={u._id} onClick={rowOpener(() => onOpen(u))} className="cursor-pointer border-t hover:bg-accent/50" data-testid="user-row" data-user-id={u._id}>
                <td className="max-w-48 px-3 py-1.5">
                  <OpenRowButton onOpen={() => onOpen(u)}>{u.name}</OpenRowButton>
                </td>
                <td className="max-w-56 truncate px-3 py-1.5 text-muted-foreground">{u.email}</td>
                <td className="whitespace-nowrap px-3 py-1.5">
                  {u.role === 'admin' ? <Chip tone="default">Administrator</Chip> : <Chip tone="secondary">Member</Chip>}
                  {u._id === currentUserId && <Chip tone="outline" className="ml-1">You</Chip>}
                </td>
                <td className="max-w-48 truncate px-3 py-1.5">{u.position || '—'}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{held}</td>
                <td className="whitespace-nowrap px-3 py-1.5 tabular-nums"><LocalTime iso={u.createdAt} /></td>
                <td className="px-3 py-1">
                  <button
                    type="button"
                    onClick={() => onEdit(u)}
                    className="inline-flex h-8 w-8 items-center justify-center rounded-md hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    aria-label={`Edit ${u.name}`}
                  >
                    <Pencil className="h-4 w-4" aria-hidden="true" />
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function UsersTab({ currentUserId = '', refreshKey = 0, onChanged, view = {}, onView }: Props) {
  const [query, setQuery] = useState(view.q || '');
  const [page, setPage] = useState(view.page || 1);
  const [pageSize, setPageSize] = useState(LIMIT);
  const [sort, setSort] = useState<SortState>('');
  const [role, setRole] = useState('all');
  const [layout, chooseLayout] = useLayout(LAYOUT_KEY);
  const [list, setList] = useState<UserList | null>(null);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [acting, setActing] = useState<GrantAction | null>(null);
  // the user open in the side panel, and that user when they are not on this page (a deep link)
  const [openId, setOpenId] = useState<string | undefined>(view.user);
  const [offPage, setOffPage] = useState<AdminUser | null>(null);
  const seq = useRef(0);
  // the address follows the search, the page and the user open in the panel
  useEffect(() => {
    onView?.({ q: query || undefined, page: page > 1 ? page : undefined, user: openId ?? editing?._id });
  }, [query, page, openId, editing?._id]); // eslint-disable-line react-hooks/exhaustive-deps -- onView is a new function each render

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      let qs = `page=${page}&pageSize=${pageSize}`;
      if (query) qs += `&search=${encodeURIComponent(query)}`;
      if (role !== 'all') qs += `&role=${role}`;
      if (sort) qs += `&sort=${sort}`;
      const res = await api<UserList>('/admin/users?' + qs);
      if (mine === seq.current) setList(res);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch users'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [page, pageSize, query, role, sort]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const onPage = list?.users.find((x) => x._id === openId);
  const shown = onPage || (offPage && offPage._id === openId ? offPage : null);
  // a user open in the panel who is not on this page is fetched on their own
  const fetchOne = useCallback(async (id: string) => {
    try {
      const res = await api<{ user: AdminUser }>(`/admin/users/${id}`);
      setOffPage(res.user);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to fetch users'));
      setOpenId(undefined);
    }
  }, []);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the panel's user is fetched from the server when the page does not hold them
    if (list && openId && !onPage && offPage?._id !== openId) fetchOne(openId);
  }, [list, openId, onPage, offPage?._id, fetchOne]);

  const replace = (u: AdminUser) => {
    setList((l) => (l ? { ...l, users: l.users.map((x) => (x._id === u._id ? u : x)) } : l));
    setOffPage((o) => (o && o._id === u._id ? u : o));
  };
  const refresh = () => {
    load();
    if (offPage) fetchOne(offPage._id);
    onChanged?.();
  };
  // a new search, filter, sort or page size starts from the first page
  const again = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  const users = list?.users || [];
  const table = layout === 'table' && users.length > 0;

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
            onSearch={again(setQuery)}
          />
        </div>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="user-stats">
          <Stat label="Total users" value={list?.stats.totalUsers ?? '—'} icon={<Users className="h-4 w-4" />} />
          <Stat label="Total badges earned" value={list?.stats.totalBadgesEarned ?? '—'} icon={<Award className="h-4 w-4" />} />
          <Stat label="Verification IDs" value={list?.stats.verificationIds ?? '—'} icon={<Fingerprint className="h-4 w-4" />} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <FilterChips label="Role" testid="role-filter" options={ROLES} value={role} onChange={again(setRole)} />
          <div className="flex flex-wrap items-center gap-3">
            <div className="hidden lg:block" data-testid="table-toolbar">
              <LayoutToggle layout={layout} onChange={chooseLayout} />
            </div>
            <ExportLink path="/admin/users" params={{ role: role === 'all' ? '' : role, search: query, sort }} />
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {table && (
          <div aria-busy={loading} className="hidden lg:block">
            <UsersTable users={users} currentUserId={currentUserId} sort={sort} onSort={again(setSort)} onOpen={(u) => setOpenId(u._id)} onEdit={setEditing} />
          </div>
        )}
        <div aria-busy={loading} className={cn(table && 'lg:hidden')}>
          {loading && !list ? (
            <div className="space-y-3">
              {[0, 1, 2].map((i) => <Skeleton key={i} className="h-32 w-full" />)}
            </div>
          ) : users.length === 0 ? (
            <div className="rounded-lg border border-dashed py-12 text-center">
              <Users className="mx-auto h-10 w-10 text-muted-foreground/60" aria-hidden="true" />
              <p className="mt-3 font-medium">No users found</p>
              <p className="mt-1 text-sm text-muted-foreground">{query ? `Nothing matches “${query}”.` : role !== 'all' ? 'No one has this role.' : 'Users appear here once they sign up.'}</p>
            </div>
          ) : (
            <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
              {users.map((u) => (
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
        </div>
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="users-page-size" value={pageSize} onChange={again(setPageSize)} />
        </TablePager>
      </CardContent>
      <SidePanel item={shown} onClose={() => setOpenId(undefined)} id="user" title="User details" description={(u) => `${u.name} · ${u.email}`}>
        {(u) => (
          <UserCard
            u={u}
            self={u._id === currentUserId}
            onEdit={() => setEditing(u)}
            onPicture={(url) => replace({ ...u, profilePicUrl: url })}
            onGrant={(kind, grant) => setActing({ kind, user: u, grant })}
          />
        )}
      </SidePanel>
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
          refresh();
        }}
      />
      <ExpiryDialog
        action={acting?.kind === 'expiry' ? acting : null}
        onClose={() => setActing(null)}
        onDone={() => {
          setActing(null);
          refresh();
        }}
      />
    </Card>
  );
}
