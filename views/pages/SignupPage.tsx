import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import SignupForm, { type SignupFormProps } from '../islands/SignupForm';

/** /signup — full name, email, password, confirm password; a link to /login. */
export default function SignupPage(p: SignupFormProps) {
  return (
    <AuthFrame title="Create your account" subtitle="Join Meritmark and start earning verified professional badges.">
      <Island name="SignupForm" component={SignupForm} props={{ next: p.next || '/', error: p.error || '', name: p.name || '', email: p.email || '', claimBadge: p.claimBadge || '' }} />
    </AuthFrame>
  );
}
