import ArrowRight from 'lucide-react/icons/arrow-right';
import Clock from 'lucide-react/icons/clock';
import Mail from 'lucide-react/icons/mail';
import MessageSquare from 'lucide-react/icons/message-square';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Island } from '../components/Island';
import { Card, Container } from '../components/ui';
import { IconTile, PageHero } from '../components/marketing';
import { useShell } from '../lib/shell';
import ContactForm, { type ContactPosted } from '../islands/ContactForm';

const hours = [
  { days: 'Mon-Fri', time: '9 AM - 6 PM PST' },
  { days: 'Sat', time: '10 AM - 4 PM PST' },
  { days: 'Sun', time: 'Closed' },
];

const quick = [
  { href: '/verify-badge', label: 'Verify a badge' },
  { href: '/cancellationsandrefunds', label: 'Cancellations and refunds' },
  { href: '/shippingpolicy', label: 'Badge delivery' },
  { href: '/badges', label: 'Browse badges' },
];

/** posted: the answer to the form posted without JavaScript (POST /contact). */
export default function ContactPage({ posted }: { posted?: ContactPosted }) {
  const { supportEmail } = useShell();
  return (
    <>
      <PageHero
        eyebrow="Contact"
        title="We'd love to hear from you"
        lead="Questions about a badge, a payment or a program for your team? Send us a message and we'll reply within 24 hours."
      />
      <section className="py-16 sm:py-20">
        <Container className="grid grid-cols-1 gap-8 lg:grid-cols-[1fr_1.6fr] lg:gap-12">
          <div className="space-y-6">
            <Card className="p-6">
              <div className="flex gap-4">
                <IconTile>
                  <Mail />
                </IconTile>
                <div className="min-w-0">
                  <h2 className="font-semibold">Email us</h2>
                  <a href={`mailto:${supportEmail}`} className="mt-1 block break-all text-sm font-medium text-primary hover:underline">
                    {supportEmail}
                  </a>
                  <p className="mt-1 text-sm text-muted-foreground">We reply within 24 hours.</p>
                </div>
              </div>
            </Card>
            <Card className="p-6">
              <div className="flex gap-4">
                <IconTile>
                  <Clock />
                </IconTile>
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold">Business hours</h2>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
                    {hours.map((h) => (
                      <div key={h.days} className="contents">
                        <dt className="font-medium">{h.days}</dt>
                        <dd className="text-muted-foreground">{h.time}</dd>
                      </div>
                    ))}
                  </dl>
                </div>
              </div>
            </Card>
            <Card className="p-6">
              <div className="flex gap-4">
                <IconTile>
                  <MessageSquare />
                </IconTile>
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold">Quick answers</h2>
                  <ul className="mt-2 space-y-1.5 text-sm">
                    {quick.map((q) => (
                      <li key={q.href}>
                        <a href={q.href} className="inline-flex items-center gap-1 text-muted-foreground hover:text-foreground">
                          {q.label} <ArrowRight className="h-3.5 w-3.5" />
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              </div>
            </Card>
          </div>
          <Card className="order-first p-6 sm:p-8 lg:order-none">
            <h2 className="text-2xl font-bold tracking-tight">Send us a message</h2>
            <p className="mt-2 text-sm text-muted-foreground">
              All fields are required. Your email app opens with the message ready to send to {supportEmail}.
            </p>
            <div className="mt-6">
              <Island name="ContactForm" component={ContactForm} props={{ supportEmail, posted }} />
            </div>
            <p className="mt-6 flex items-start gap-2 border-t pt-5 text-xs text-muted-foreground">
              <ShieldCheck className="h-4 w-4 shrink-0 text-success" />
              <span>
                We never share your contact details. See our{' '}
                <a href="/privacypolicy" className="underline underline-offset-4 hover:text-foreground">Privacy Policy</a>.
              </span>
            </p>
          </Card>
        </Container>
      </section>
    </>
  );
}
