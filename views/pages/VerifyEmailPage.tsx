import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import VerifyEmailCard, { type VerifyEmailCardProps } from '../islands/VerifyEmailCard';

/** /verify-email?token=… — confirms the address with a POST from the island (a mail
 * scanner fetching the link confirms nothing). */
export default function VerifyEmailPage({ token }: VerifyEmailCardProps) {
  return (
    <AuthFrame title="Confirm your email" subtitle="Badges are only issued to an address you have confirmed.">
      <Island name="VerifyEmailCard" component={VerifyEmailCard} props={{ token }} />
    </AuthFrame>
  );
}
