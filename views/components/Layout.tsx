import type { ReactNode } from 'react';
import Header from '../islands/Header';
import { Footer } from './Footer';
import { Island } from './Island';
import type { Shell } from '../lib/shell';

/** The shell every page is rendered in: header island, main, footer. noFooter: the server's
 * render of the header alone (views/entry-server.tsx, SHELL_PAGE), which needs nothing after it. */
export function Layout({ shell, noFooter, children }: { shell: Shell; bare?: boolean; noFooter?: boolean; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:px-3 focus:py-2">
        Skip to content
      </a>
      {shell.paymentsSimulated ? (
        <div role="status" data-testid="simulator-banner" className="bg-amber-100 px-4 py-1.5 text-center text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Demo site: payments go to a PayPal simulator. Nothing is charged and no payment is real.
        </div>
      ) : null}
      <Island name="Header" component={Header} props={{ shell }} className="sticky top-0 z-40" hydrate="interaction" />
      <main id="main" className="flex-1">
        {children}
      </main>
      {noFooter ? null : <Footer supportEmail={shell.supportEmail} />}
    </div>
  );
}
