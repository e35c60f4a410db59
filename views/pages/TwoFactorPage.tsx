import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import TwoFactorSetup, { type TwoFactorSetupProps } from '../islands/TwoFactorSetup';

/** /account/two-factor — set up two-step sign-in; admins are sent here before the dashboard. */
export default function TwoFactorPage(p: TwoFactorSetupProps) {
  return (
    <AuthFrame
      title="Two-step sign-in"
      subtitle={
        p.required && !p.enabled
          ? 'Administrators must protect their account with an authenticator app before the dashboard opens.'
          : 'Sign in with your password and a code from an authenticator app.'
      }
    >
      <Island name="TwoFactorSetup" component={TwoFactorSetup} props={{ enabled: p.enabled, required: p.required, next: p.next }} />
    </AuthFrame>
  );
}
