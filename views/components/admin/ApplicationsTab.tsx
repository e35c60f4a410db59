// Placeholder: replaced by the feature that owns this tab.
export function ApplicationsTab() {
  return <p className="text-sm text-muted-foreground">ApplicationsTab is coming.</p>;
}
