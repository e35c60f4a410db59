// Placeholder: replaced by the feature that owns this tab.
export function CouponsTab() {
  return <p className="text-sm text-muted-foreground">CouponsTab is coming.</p>;
}
