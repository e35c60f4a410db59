import LogIn from 'lucide-react/icons/log-in';
import { Island } from '../components/Island';
import { Container, LinkButton } from '../components/ui';
import { useShell } from '../lib/shell';
import Profile, { type ProfileProps } from '../islands/Profile';
import AccountSecurity from '../islands/AccountSecurity';
import AccountData from '../islands/AccountData';

/** /profile — the member's own profile (member only: visitors are sent to /login first). */
export default function ProfilePage(p: ProfileProps & { waitingBadges?: string[] }) {
  const { user } = useShell();
  if (!user || !p.user) {
    return (
      <Container className="flex flex-col items-center py-24 text-center">
        <h1 className="text-2xl font-bold">Please log in to view your profile</h1>
        <LinkButton href="/login?next=%2Fprofile" className="mt-6">
          <LogIn /> Login
        </LinkButton>
      </Container>
    );
  }
  return (
    <Container className="py-8 sm:py-10">
      <Island name="Profile" component={Profile} props={{ user: p.user, badges: p.badges || [], origin: p.origin, held: p.held, categories: p.categories }} />
      <Island name="AccountSecurity" component={AccountSecurity} props={{ email: p.user.email, emailVerified: !!p.user.emailVerified, twoFactorEnabled: !!p.user.twoFactorEnabled, waitingBadges: p.waitingBadges || [] }} />
      <Island name="AccountData" component={AccountData} props={{ twoFactorEnabled: !!p.user.twoFactorEnabled, badgeCount: (p.badges || []).filter((b) => b.standing?.state !== 'revoked').length }} />
    </Container>
  );
}
