// Placeholder: replaced by the feature that owns this tab.
export function BadgesTab() {
  return <p className="text-sm text-muted-foreground">BadgesTab is coming.</p>;
}
