import { Container } from '../components/ui';

export default function ContactPage() {
  return (
    <Container className="py-16">
      <h1 className="text-3xl font-bold">Contact</h1>
    </Container>
  );
}
