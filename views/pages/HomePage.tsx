import { Container, LinkButton } from '../components/ui';

export default function HomePage() {
  return (
    <Container className="py-20 text-center">
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Professional badges that prove themselves</h1>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
        Earn a badge by passing a quiz or submitting proof, and share a credential anyone can verify.
      </p>
      <div className="mt-8 flex justify-center gap-3">
        <LinkButton href="/badges" size="lg">Discover Badges</LinkButton>
        <LinkButton href="/hall-of-fame" size="lg" variant="outline">View Hall of Fame</LinkButton>
      </div>
    </Container>
  );
}
