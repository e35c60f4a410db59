// Tabs on Radix (arrow-key navigation, aria) in the shadcn/ui style.
import type { ComponentPropsWithoutRef } from 'react';
import * as T from 'radix-ui/tabs';
import { cn } from '../lib/cn';

export const Tabs = T.Root;

export function TabsList({ className, ...rest }: ComponentPropsWithoutRef<typeof T.List>) {
  return <T.List className={cn('inline-flex h-10 flex-wrap items-center justify-center gap-1 rounded-md bg-muted p-1 text-muted-foreground', className)} {...rest} />;
}
export function TabsTrigger({ className, ...rest }: ComponentPropsWithoutRef<typeof T.Trigger>) {
  return (
    <T.Trigger
      className={cn(
        'inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-sm px-3 py-1.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      {...rest}
    />
  );
}
export function TabsContent({ className, ...rest }: ComponentPropsWithoutRef<typeof T.Content>) {
  return <T.Content className={cn('mt-4 focus-visible:outline-none', className)} {...rest} />;
}
