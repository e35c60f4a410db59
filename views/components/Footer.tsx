import { Award, Mail } from 'lucide-react';

const explore = [
  { href: '/badges', label: 'Badges' },
  { href: '/services', label: 'Services' },
  { href: '/hall-of-fame', label: 'Hall of Fame' },
  { href: '/about', label: 'About' },
];
const support = [
  { href: '/verify-badge', label: 'Verify a Badge' },
  { href: '/admin', label: 'Admin Portal' },
  { href: '/contact', label: 'Contact' },
];
const policies = [
  { href: '/shippingpolicy', label: 'Shipping Policy' },
  { href: '/termsandconditions', label: 'Terms and Conditions' },
  { href: '/cancellationsandrefunds', label: 'Cancellations and Refunds' },
  { href: '/privacypolicy', label: 'Privacy Policy' },
];

function Column({ title, links }: { title: string; links: { href: string; label: string }[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href} className="text-sm text-muted-foreground hover:text-foreground">{l.label}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer({ supportEmail }: { supportEmail: string }) {
  return (
    <footer className="mt-16 border-t bg-muted/30">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4 lg:px-8">
        <div>
          <a href="/" className="flex items-center gap-2 font-bold">
            <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
              <Award className="h-5 w-5" />
            </span>
            Meritmark
          </a>
          <p className="mt-3 text-sm text-muted-foreground">Professional badges that verify themselves.</p>
          <a href={`mailto:${supportEmail}`} className="mt-3 inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground">
            <Mail className="h-4 w-4" /> {supportEmail}
          </a>
        </div>
        <Column title="Explore" links={explore} />
        <Column title="Support" links={support} />
        <Column title="Policies" links={policies} />
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-6 text-center text-xs text-muted-foreground sm:px-6 lg:px-8">
          © 2025 Meritmark. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
