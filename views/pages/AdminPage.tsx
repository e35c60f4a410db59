import ShieldAlert from 'lucide-react/icons/shield-alert';
import { Island } from '../components/Island';
import { Container, LinkButton } from '../components/ui';
import AdminDashboard, { type AdminDashboardProps } from '../islands/AdminDashboard';

type Props = { denied: boolean } & Partial<AdminDashboardProps>;

/** /admin — the dashboard for administrators; signed-in members get 'Access Denied' (403).
 * Visitors never reach it: the route guard sends them to /login. */
export default function AdminPage(p: Props) {
  if (p.denied || !p.summary || !p.applications) {
    return (
      <Container className="flex flex-col items-center py-24 text-center">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <ShieldAlert className="h-7 w-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 max-w-xl text-2xl font-bold tracking-tight sm:text-3xl">Access Denied: You need admin privileges to access this page.</h1>
        <p className="mt-4 max-w-md text-muted-foreground">This area is for Meritmark administrators. If you think you should have access, ask an administrator to update your role.</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <LinkButton href="/">Return Home</LinkButton>
          <LinkButton href="/profile" variant="outline">Your profile</LinkButton>
        </div>
      </Container>
    );
  }
  return (
    <Island
      name="AdminDashboard"
      component={AdminDashboard}
      props={{ adminName: p.adminName || '', adminId: p.adminId || '', summary: p.summary, applications: p.applications, view: p.view }}
    />
  );
}
