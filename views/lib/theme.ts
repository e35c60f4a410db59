// Theme: light, dark or system, kept in localStorage under 'vite-ui-theme'.
// The same rule runs before first paint from the inline script in <head> (app/web/page.go).
export type Theme = 'light' | 'dark' | 'system';
export const THEME_KEY = 'vite-ui-theme';
export const DEFAULT_THEME: Theme = 'light';

export function getTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    if (t === 'light' || t === 'dark' || t === 'system') return t;
  } catch {
    /* storage blocked */
  }
  return DEFAULT_THEME;
}

export function applyTheme(t: Theme) {
  const dark = t === 'dark' || (t === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function setTheme(t: Theme) {
  try {
    localStorage.setItem(THEME_KEY, t);
  } catch {
    /* storage blocked */
  }
  applyTheme(t);
}
