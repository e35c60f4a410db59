import Award from 'lucide-react/icons/award';
import Mail from 'lucide-react/icons/mail';
import ShieldCheck from 'lucide-react/icons/shield-check';

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
      <ul className="mt-4 space-y-2.5">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href} className="text-sm text-muted-foreground transition-colors hover:text-foreground">{l.label}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer({ supportEmail }: { supportEmail: string }) {
  return (
    <footer className="mt-16 border-t bg-muted/30">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-14 lg:grid-cols-[1fr_2fr] lg:gap-16 lg:px-8">
        <div className="max-w-sm">
          <a href="/" className="inline-flex items-center gap-2 font-bold tracking-tight">
            <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
              <Award className="h-5 w-5" />
            </span>
            <span className="text-lg">Meritmark</span>
          </a>
          <p className="mt-4 text-sm text-muted-foreground">
            Professional badges that verify themselves: earned by quiz or proof, reviewed by people, signed as Open Badges 3.0
            credentials.
          </p>
          <a href={`mailto:${supportEmail}`} className="mt-4 inline-flex items-center gap-2 break-all text-sm font-medium text-foreground hover:text-primary">
            <Mail className="h-4 w-4 shrink-0 text-primary" /> {supportEmail}
          </a>
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-3">
          <Column title="Explore" links={explore} />
          <Column title="Support" links={support} />
          <div className="col-span-2 sm:col-span-1">
            <Column title="Policies" links={policies} />
          </div>
        </div>
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-4 py-6 text-xs text-muted-foreground sm:flex-row sm:px-6 lg:px-8">
          <p>{`© ${new Date().getUTCFullYear()} Meritmark. All rights reserved.`}</p>
          <p className="inline-flex items-center gap-1.5">
            <ShieldCheck className="h-3.5 w-3.5 text-success" /> Every badge is signed and publicly verifiable
          </p>
        </div>
      </div>
    </footer>
  );
}
