import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import ChangePasswordForm, { type ChangePasswordFormProps } from '../islands/ChangePasswordForm';

/** /account/password — change the password; the seeded admin must do it at first sign-in. */
export default function SetPasswordPage({ required, email, next }: ChangePasswordFormProps) {
  return (
    <AuthFrame
      title={required ? 'Choose a new password' : 'Change your password'}
      subtitle={
        required
          ? 'This account still has the password it was created with. Choose your own before you continue.'
          : 'Your other devices will be signed out.'
      }
    >
      <Island name="ChangePasswordForm" component={ChangePasswordForm} props={{ required, email, next }} />
    </AuthFrame>
  );
}
