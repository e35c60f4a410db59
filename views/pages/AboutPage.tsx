import { Container } from '../components/ui';

export default function AboutPage() {
  return (
    <Container className="py-16">
      <h1 className="text-3xl font-bold">About</h1>
    </Container>
  );
}
