// Placeholder: replaced by the feature that owns this tab.
export function UsersTab() {
  return <p className="text-sm text-muted-foreground">UsersTab is coming.</p>;
}
