import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import { useShell } from '../lib/shell';
import VerifyEmailCard, { type VerifyEmailCardProps } from '../islands/VerifyEmailCard';

/** /verify-email?token=… — confirms the address with a POST from the island (a mail
 * scanner fetching the link confirms nothing). The signed-in member (if any) goes to the
 * island as a prop: islands have no shell on the client, so reading it there would render
 * another link than the server did (React #418). */
export default function VerifyEmailPage({ token }: Pick<VerifyEmailCardProps, 'token'>) {
  const { user } = useShell();
  const member = user ? { name: user.name, email: user.email } : null;
  return (
    <AuthFrame title="Confirm your email" subtitle="Badges are only issued to an address you have confirmed.">
      <Island name="VerifyEmailCard" component={VerifyEmailCard} props={{ token, member }} />
    </AuthFrame>
  );
}
