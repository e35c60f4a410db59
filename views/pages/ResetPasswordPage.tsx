import LinkIcon from 'lucide-react/icons/link';
import { Island } from '../components/Island';
import { AuthFrame } from '../components/account';
import { Card, CardContent, LinkButton } from '../components/ui';
import ResetPasswordForm, { type ResetPasswordFormProps } from '../islands/ResetPasswordForm';

/** /reset-password?email=…&token=… — 'Invalid Reset Link' when either is missing. */
export default function ResetPasswordPage({ email, token }: ResetPasswordFormProps) {
  if (!email || !token) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-16 sm:py-24">
        <Card>
          <CardContent className="flex flex-col items-center pt-8 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-destructive/12 text-destructive">
              <LinkIcon className="h-6 w-6" aria-hidden="true" />
            </span>
            <h1 className="mt-4 text-2xl font-bold tracking-tight">Invalid Reset Link</h1>
            <p className="mt-2 text-muted-foreground">
              This link is missing its email or token. Open the link from your reset email again, or request a new one from the login page.
            </p>
            <LinkButton href="/login" className="mt-6 w-full">
              Back to Login
            </LinkButton>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <AuthFrame title="Choose a new password" subtitle="Pick a password of at least 8 characters. Every device signed in to your account will be signed out.">
      <Island name="ResetPasswordForm" component={ResetPasswordForm} props={{ email, token }} />
    </AuthFrame>
  );
}
