// Pieces shared by the payment pages (/payment, /payment-success, /payment-failed).
import type { ReactNode } from 'react';
import { Card, CardContent } from './ui';
import { cn } from '../lib/cn';

export function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>;
}

/** A centred card with a round icon, a title and text: the pages' states. */
export function StateCard({ icon, title, tone, testid, children, h1 }: { icon: ReactNode; title: string; tone: 'success' | 'primary' | 'warning' | 'destructive'; testid: string; children: ReactNode; h1?: boolean }) {
  const H = h1 ? 'h1' : 'h2';
  return (
    <Card className="mx-auto max-w-2xl" data-testid={testid}>
      <CardContent className="flex flex-col items-center p-8 text-center sm:p-10">
        <span
          className={cn(
            'flex h-14 w-14 items-center justify-center rounded-full',
            tone === 'success' ? 'bg-success/15 text-success' : tone === 'warning' ? 'bg-warning/20 text-foreground' : tone === 'destructive' ? 'bg-destructive/15 text-destructive' : 'bg-primary/10 text-primary',
          )}
          aria-hidden="true"
        >
          {icon}
        </span>
        <H className="mt-5 text-xl font-bold tracking-tight sm:text-2xl">{title}</H>
        <div className="mt-2 max-w-lg text-muted-foreground">{children}</div>
      </CardContent>
    </Card>
  );
}

