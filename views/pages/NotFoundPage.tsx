import Compass from 'lucide-react/icons/compass';
import Home from 'lucide-react/icons/house';
import { Container, LinkButton } from '../components/ui';

export default function NotFoundPage({ path }: { path: string }) {
  return (
    <Container className="flex flex-col items-center py-24 text-center">
      <Compass className="h-12 w-12 text-primary" />
      <p className="mt-6 text-sm font-semibold text-primary">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="mt-4 max-w-md text-muted-foreground">
        We couldn't find <code className="rounded bg-muted px-1.5 py-0.5 text-sm">{path}</code>. It may have moved, or the link may be mistyped.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <LinkButton href="/"><Home /> Return Home</LinkButton>
        <LinkButton href="/badges" variant="outline">Explore Badges</LinkButton>
      </div>
    </Container>
  );
}
