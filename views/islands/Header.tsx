import { useEffect, useRef, useState } from 'react';
import Award from 'lucide-react/icons/award';
import ChevronDown from 'lucide-react/icons/chevron-down';
import LayoutDashboard from 'lucide-react/icons/layout-dashboard';
import LogOut from 'lucide-react/icons/log-out';
import Menu from 'lucide-react/icons/menu';
import Monitor from 'lucide-react/icons/monitor';
import Moon from 'lucide-react/icons/moon';
import Sun from 'lucide-react/icons/sun';
import User from 'lucide-react/icons/user';
import X from 'lucide-react/icons/x';
import { api } from '../lib/api';
import { applyTheme, getTheme, setTheme, type Theme } from '../lib/theme';
import { cn } from '../lib/cn';
import type { Shell } from '../lib/shell';
import { useSessionUser } from '../lib/hooks/useSessionUser';
import { buttonClass } from '../components/ui';
import { MenuButton } from '../components/MenuButton';
import { initials } from '../lib/format';
import { useHydrated } from '../lib/hooks/useHydrated';

export const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/badges', label: 'Badges' },
  { href: '/services', label: 'Services' },
  { href: '/hall-of-fame', label: 'Hall of Fame' },
  { href: '/about', label: 'About' },
  { href: '/contact', label: 'Contact' },
  { href: '/verify-badge', label: 'Verify' },
];

function isActive(path: string, href: string) {
  return href === '/' ? path === '/' : path === href || path.startsWith(href + '/');
}

const themes: { value: Theme; label: string; Icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', Icon: Sun },
  { value: 'dark', label: 'Dark', Icon: Moon },
  { value: 'system', label: 'System', Icon: Monitor },
];

const MENU = 'z-50 min-w-[9rem] rounded-md border bg-popover p-1 text-popover-foreground shadow-md';
const ITEM =
  'flex w-full cursor-default select-none items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none focus:bg-accent focus:text-accent-foreground';

/** The theme menu (arrow keys, Home/End, typeahead, Escape, focus return: MenuButton). */
function ThemeToggle() {
  const [theme, set] = useState<Theme>('light');
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the stored theme exists only in the browser: read after hydration so the server's HTML matches
    set(getTheme());
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => getTheme() === 'system' && applyTheme('system');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  const choose = (t: string) => {
    setTheme(t as Theme);
    set(t as Theme);
  };
  return (
    <MenuButton
      buttonClassName={buttonClass('ghost', 'icon')}
      buttonProps={{ 'aria-label': 'Toggle theme', 'data-testid': 'theme-toggle' }}
      listClassName={cn(MENU, 'w-36')}
      button={
        <>
          <Sun className="h-5 w-5 dark:hidden" aria-hidden="true" />
          <Moon className="hidden h-5 w-5 dark:block" aria-hidden="true" />
        </>
      }
    >
      <div role="group" aria-label="Theme">
        {themes.map(({ value, label, Icon }) => (
          <button
            key={value}
            type="button"
            role="menuitemradio"
            aria-checked={theme === value}
            tabIndex={-1}
            data-theme-choice={value}
            className={cn(ITEM, theme === value && 'font-semibold')}
            onClick={() => choose(value)}
          >
            <Icon className="h-4 w-4" aria-hidden="true" /> {label}
          </button>
        ))}
      </div>
    </MenuButton>
  );
}

async function logout() {
  try {
    await api('/auth/logout', { method: 'POST', body: {} });
  } catch {
    // the spec: logout clears the user even if the server call fails
  }
  window.location.assign('/');
}

function Avatar({ name, url, className }: { name: string; url: string; className?: string }) {
  if (url) return <img src={url} alt="" className={cn('rounded-full object-cover', className)} />;
  return (
    <span className={cn('flex items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground', className)} data-testid="header-initials">
      {initials(name)}
    </span>
  );
}

function UserMenu({ shell }: { shell: Shell }) {
  const u = shell.user!;
  return (
    <MenuButton
      buttonClassName={buttonClass('ghost', 'default', 'gap-2 px-2')}
      buttonProps={{ 'data-testid': 'user-menu' }}
      listClassName={cn(MENU, 'w-56')}
      button={
        <>
          {/* the name is the button's name (shown from xl up); the avatar is decoration */}
          <span aria-hidden="true" className="contents">
            <Avatar name={u.name} url={u.profilePicUrl} className="h-8 w-8" />
          </span>
          <span className="sr-only max-w-[10rem] truncate xl:not-sr-only">{u.name}</span>
          <ChevronDown className="h-4 w-4" aria-hidden="true" />
        </>
      }
    >
      <div className="px-2 py-1.5 text-sm">
        <span className="block truncate font-medium">{u.name}</span>
        <span className="block truncate text-xs text-muted-foreground">{u.email}</span>
      </div>
      <div role="separator" className="my-1 h-px bg-border" />
      <a role="menuitem" tabIndex={-1} href="/profile" className={ITEM}>
        <User className="h-4 w-4" aria-hidden="true" /> Profile
      </a>
      {u.role === 'admin' && (
        <a role="menuitem" tabIndex={-1} href="/admin" className={ITEM}>
          <LayoutDashboard className="h-4 w-4" aria-hidden="true" /> Admin Dashboard
        </a>
      )}
      <button type="button" role="menuitem" tabIndex={-1} className={ITEM} onClick={logout}>
        <LogOut className="h-4 w-4" aria-hidden="true" /> Logout
      </button>
    </MenuButton>
  );
}

/** The links of the mobile menu; without JavaScript (the user menu cannot open) it lists the
 * signed-in user's pages too. */
function MobileLinks({ shell, withAccount }: { shell: Shell; withAccount?: boolean }) {
  const path = shell.path;
  const account = withAccount && shell.user ? [{ href: '/profile', label: 'Profile' }, ...(shell.user.role === 'admin' ? [{ href: '/admin', label: 'Admin Dashboard' }] : [])] : [];
  return (
    <>
      {[...NAV_LINKS, ...account].map((l) => (
        <a
          key={l.href}
          href={l.href}
          aria-current={isActive(path, l.href) ? 'page' : undefined}
          className={cn('block rounded-md px-3 py-2.5 text-base font-medium hover:bg-accent', isActive(path, l.href) ? 'bg-accent text-accent-foreground' : 'text-muted-foreground')}
        >
          {l.label}
        </a>
      ))}
      {!shell.user && (
        <div className="mt-3 grid grid-cols-2 gap-2 border-t pt-4">
          <a href="/login" className={buttonClass('outline')}>Login</a>
          <a href="/signup" className={buttonClass('default')}>Sign Up</a>
        </div>
      )}
    </>
  );
}

/** The shared header: navigation, theme, the user menu, the mobile menu and the toaster.
 * The header hydrates on first touch; until then (and without JavaScript) the mobile menu
 * is a <details> element that opens without script. */
export default function Header({ shell: initialShell }: { shell: Shell }) {
  const hydrated = useHydrated();
  const [mobileOpen, setMobileOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Escape closes the mobile menu and gives the focus back to its button
  useEffect(() => {
    if (!mobileOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMobileOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mobileOpen]);
  // the user follows profile edits made on this page (views/lib/session-store.ts)
  const shell = { ...initialShell, user: useSessionUser(initialShell.user) };
  const path = shell.path;
  return (
    <header className="relative border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-3 sm:gap-4 sm:px-6 lg:px-8">
        <a href="/" className="flex min-w-0 items-center gap-2 font-bold tracking-tight">
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Award className="h-5 w-5" />
          </span>
          <span className="text-base sm:text-lg">Meritmark</span>
        </a>
        <nav aria-label="Main" className="ml-2 hidden items-center gap-0.5 lg:flex xl:ml-4 xl:gap-1">
          {NAV_LINKS.map((l) => (
            <a
              key={l.href}
              href={l.href}
              aria-current={isActive(path, l.href) ? 'page' : undefined}
              className={cn(
                'whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground xl:px-3',
                isActive(path, l.href) ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
              )}
            >
              {l.label}
            </a>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <ThemeToggle />
          {shell.user ? (
            <UserMenu shell={shell} />
          ) : (
            <div className="hidden items-center gap-2 lg:flex">
              <a href="/login" className={buttonClass('ghost', 'sm')}>Login</a>
              <a href="/signup" className={buttonClass('default', 'sm')}>Sign Up</a>
            </div>
          )}
          {hydrated ? (
            <button
              ref={toggleRef}
              type="button"
              className={buttonClass('ghost', 'icon', 'lg:hidden')}
              aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={mobileOpen}
              aria-controls="mobile-nav"
              data-testid="mobile-menu-toggle"
              onClick={() => setMobileOpen(!mobileOpen)}
            >
              {mobileOpen ? <X className="h-5 w-5" /> : <Menu className="h-5 w-5" />}
            </button>
          ) : (
            <details className="lg:hidden" data-testid="mobile-menu-details">
              <summary className={buttonClass('ghost', 'icon', 'cursor-pointer list-none [&::-webkit-details-marker]:hidden')} data-testid="mobile-menu-toggle">
                <Menu className="h-5 w-5" aria-hidden="true" />
                <span className="sr-only">Menu</span>
              </summary>
              <nav aria-label="Mobile" className="absolute inset-x-0 top-16 z-50 border-y bg-background px-4 pb-4 pt-2 shadow-lg">
                <MobileLinks shell={shell} withAccount />
              </nav>
            </details>
          )}
        </div>
      </div>
      {mobileOpen && (
        <nav id="mobile-nav" aria-label="Mobile" className="border-t bg-background px-4 pb-4 pt-2 shadow-lg lg:hidden">
          <MobileLinks shell={shell} />
        </nav>
      )}
    </header>
  );
}
