declare module 'virtual:pages' {
  import type { ComponentType } from 'react';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page takes its own props, chosen by the server
  const pages: Record<string, ComponentType<any>>;
  export default pages;
}
declare module 'virtual:islands' {
  import type { ComponentType } from 'react';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each island takes its own props, chosen by the server
  const islands: Record<string, () => Promise<{ default: ComponentType<any> }>>;
  export default islands;
}
declare module 'react-dom/cjs/react-dom-server-legacy.browser.production.js' {
  export { renderToString } from 'react-dom/server';
}
declare module '*.svg' {
  const url: string; // /static/dist/images/<name>-<HASH>.svg (esbuild.config.mjs, hashedImages)
  export default url;
}
declare module '*.png' {
  const url: string;
  export default url;
}
// one lucide icon by its file (lucide-react/icons/<kebab-name>): the package ships no
// types for these paths. Islands import icons this way, not from the package's index: with
// code splitting, esbuild files every icon the index re-exports into a chunk that every
// island importing the index loads (see docs/performance.md, "Islands: sizes and budgets").
declare module 'lucide-react/icons/*' {
  import type { LucideIcon } from 'lucide-react';
  const icon: LucideIcon;
  export default icon;
}
declare module 'virtual:badge-icons' {
  /** the sprite's URL, /static/dist/images/badge-icons-<HASH>.svg (esbuild.config.mjs) */
  export const sprite: string;
  /** a badge's icon name to its symbol's id in the sprite */
  export const glyphs: Record<string, string>;
}
