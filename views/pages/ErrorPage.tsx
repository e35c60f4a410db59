import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { Container, LinkButton } from '../components/ui';

/** The spec's fallback screen for failures ('Unexpected Application Error!'), the
 * 'Temporarily unavailable' screen while the database cannot be reached (503), and the
 * plain error screen for other refused page requests (message given). */
export default function ErrorPage({ requestId, status, message }: { requestId?: string; status?: number; message?: string }) {
  const unavailable = status === 503;
  const serverError = !unavailable && (!status || status >= 500);
  return (
    <Container className="flex flex-col items-center py-24 text-center">
      <TriangleAlert className="h-12 w-12 text-destructive" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight">
        {unavailable ? 'Temporarily unavailable' : serverError ? 'Unexpected Application Error!' : message}
      </h1>
      <p className="mt-4 max-w-md text-muted-foreground">
        {unavailable
          ? (message ?? 'Please try again in a moment.')
          : serverError
            ? 'Something went wrong while showing this page. Please try again in a moment.'
            : 'This page could not be shown.'}
      </p>
      {requestId && <p className="mt-2 text-xs text-muted-foreground">Reference: {requestId}</p>}
      <div className="mt-8 flex gap-3">
        <LinkButton href="/">Return Home</LinkButton>
        <LinkButton href="/badges" variant="outline">Explore Badges</LinkButton>
      </div>
    </Container>
  );
}
