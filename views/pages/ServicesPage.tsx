import { Container } from '../components/ui';

export default function ServicesPage() {
  return (
    <Container className="py-16">
      <h1 className="text-3xl font-bold">Services</h1>
    </Container>
  );
}
