// An on/off switch (Radix), labelled for screen readers.
import * as RSwitch from 'radix-ui/switch';

export function Switch({ checked, onCheckedChange, label, disabled, testId }: { checked: boolean; onCheckedChange: (v: boolean) => void; label: string; disabled?: boolean; testId?: string }) {
  return (
    <RSwitch.Root
      checked={checked}
      onCheckedChange={onCheckedChange}
      disabled={disabled}
      aria-label={label}
      data-testid={testId}
      className="peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 ring-offset-background disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-success data-[state=unchecked]:bg-input"
    >
      <RSwitch.Thumb className="pointer-events-none block h-5 w-5 rounded-full bg-background shadow-lg ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
    </RSwitch.Root>
  );
}
