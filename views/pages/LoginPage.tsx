import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import LoginForm, { type LoginFormProps } from '../islands/LoginForm';

/** /login — email and password, the Forgot Password dialog, a link to sign up. */
export default function LoginPage(p: LoginFormProps) {
  return (
    <AuthFrame title="Welcome back" subtitle="Sign in to your Meritmark account to continue.">
      <Island name="LoginForm" component={LoginForm} props={{ next: p.next || '/', reset: !!p.reset, error: p.error || '', email: p.email || '', forgot: !!p.forgot, forgotError: p.forgotError || '', notice: p.notice || '' }} />
    </AuthFrame>
  );
}
