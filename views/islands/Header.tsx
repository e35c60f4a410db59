import { useEffect, useRef, useState } from 'react';
import { Award, ChevronDown, LayoutDashboard, LogOut, Menu, Monitor, Moon, Sun, User, X } from 'lucide-react';
import { api } from '../lib/api';
import { applyTheme, getTheme, setTheme, type Theme } from '../lib/theme';
import { cn } from '../lib/cn';
import type { Shell } from '../lib/shell';
import { buttonClass } from '../components/ui';

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

function useOutsideClose(open: boolean, close: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);
  return ref;
}

const themes: { value: Theme; label: string; Icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', Icon: Sun },
  { value: 'dark', label: 'Dark', Icon: Moon },
  { value: 'system', label: 'System', Icon: Monitor },
];

function ThemeToggle() {
  const [theme, set] = useState<Theme>('light');
  const [open, setOpen] = useState(false);
  const ref = useOutsideClose(open, () => setOpen(false));
  useEffect(() => {
    set(getTheme());
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => getTheme() === 'system' && applyTheme('system');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  const choose = (t: Theme) => {
    setTheme(t);
    set(t);
    setOpen(false);
  };
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        className={buttonClass('ghost', 'icon')}
        aria-label="Toggle theme"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="theme-toggle"
        onClick={() => setOpen(!open)}
      >
        <Sun className="h-5 w-5 dark:hidden" />
        <Moon className="hidden h-5 w-5 dark:block" />
      </button>
      {open && (
        <div role="menu" className="absolute right-0 z-50 mt-2 w-36 rounded-md border bg-popover p-1 text-popover-foreground shadow-md">
          {themes.map(({ value, label, Icon }) => (
            <button
              key={value}
              role="menuitemradio"
              aria-checked={theme === value}
              type="button"
              data-theme-choice={value}
              className={cn('flex w-full items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent', theme === value && 'font-semibold')}
              onClick={() => choose(value)}
            >
              <Icon className="h-4 w-4" /> {label}
            </button>
          ))}
        </div>
      )}
    </div>
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
    <span className={cn('flex items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary', className)}>
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

function UserMenu({ shell }: { shell: Shell }) {
  const [open, setOpen] = useState(false);
  const ref = useOutsideClose(open, () => setOpen(false));
  const u = shell.user!;
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        className={buttonClass('ghost', 'default', 'gap-2 px-2')}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="user-menu"
        onClick={() => setOpen(!open)}
      >
        <Avatar name={u.name} url={u.profilePicUrl} className="h-8 w-8" />
        <span className="hidden max-w-[10rem] truncate xl:inline">{u.name}</span>
        <ChevronDown className="h-4 w-4" />
      </button>
      {open && (
        <div role="menu" className="absolute right-0 z-50 mt-2 w-56 rounded-md border bg-popover p-1 text-popover-foreground shadow-md">
          <div className="px-2 py-1.5 text-sm">
            <div className="truncate font-medium">{u.name}</div>
            <div className="truncate text-xs text-muted-foreground">{u.email}</div>
          </div>
          <div className="my-1 h-px bg-border" />
          <a role="menuitem" href="/profile" className="flex items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent">
            <User className="h-4 w-4" /> Profile
          </a>
          {u.role === 'admin' && (
            <a role="menuitem" href="/admin" className="flex items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent">
              <LayoutDashboard className="h-4 w-4" /> Admin Dashboard
            </a>
          )}
          <button role="menuitem" type="button" onClick={logout} className="flex w-full items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent">
            <LogOut className="h-4 w-4" /> Logout
          </button>
        </div>
      )}
    </div>
  );
}

/** The shared header: navigation, theme, the user menu, the mobile menu and the toaster. */
type UserDetail = NonNullable<Shell['user']>;

/** Keeps the header's user in step with profile edits made on this page (the profile
 * island announces them with a 'meritmark:user' event and window.__mmUser, since this
 * island may hydrate only later). */
function useLiveUser(initial: Shell['user']) {
  const [user, setUser] = useState(initial);
  useEffect(() => {
    const w = window as unknown as { __mmUser?: UserDetail };
    if (w.__mmUser && initial) setUser({ ...initial, ...w.__mmUser });
    const on = (e: Event) => setUser((u) => (u ? { ...u, ...(e as CustomEvent<UserDetail>).detail } : u));
    window.addEventListener('meritmark:user', on);
    return () => window.removeEventListener('meritmark:user', on);
  }, [initial]);
  return user;
}

export default function Header({ shell: initialShell }: { shell: Shell }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const shell = { ...initialShell, user: useLiveUser(initialShell.user) };
  const path = shell.path;
  return (
    <header className="border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <a href="/" className="flex items-center gap-2 font-bold tracking-tight">
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Award className="h-5 w-5" />
          </span>
          <span className="text-lg">Meritmark</span>
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
          <button
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
        </div>
      </div>
      {mobileOpen && (
        <nav id="mobile-nav" aria-label="Mobile" className="border-t bg-background px-4 pb-4 pt-2 shadow-lg lg:hidden">
          {NAV_LINKS.map((l) => (
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
        </nav>
      )}
    </header>
  );
}
