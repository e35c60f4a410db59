// Placeholder: replaced by the feature that owns this tab.
export function QuizTab() {
  return <p className="text-sm text-muted-foreground">QuizTab is coming.</p>;
}
