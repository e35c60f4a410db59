import { Container } from '../components/ui';

export default function PolicyPage({ kind }: { kind: string }) {
  return (
    <Container className="py-16">
      <h1 className="text-3xl font-bold">{kind}</h1>
    </Container>
  );
}
