// A badge's criteria, collapsed past 20 words with Read more / Show less. Without
// JavaScript the toggle is a link to ?criteria=full, which the server renders expanded.
import { useState, type MouseEvent } from 'react';
import Ellipsis from '../components/Ellipsis';
import { words } from '../lib/format';

export const CRITERIA_PREVIEW_WORDS = 20;

export default function BadgeCriteria({ badgeId, text, expanded }: { badgeId: string; text: string; expanded: boolean }) {
  const [open, setOpen] = useState(expanded);
  const cut = words(text || '', CRITERIA_PREVIEW_WORDS);
  if (!text.trim()) return <p className="text-sm text-muted-foreground">No specific criteria listed.</p>;
  if (!cut.cut) return <p className="whitespace-pre-line leading-relaxed" data-testid="criteria-text">{text}</p>;
  const toggle = (e: MouseEvent) => {
    e.preventDefault();
    setOpen(!open);
  };
  return (
    <div>
      <p className="whitespace-pre-line leading-relaxed" data-testid="criteria-text">
        {open ? (
          text
        ) : (
          <>
            {cut.text}
            <Ellipsis />
          </>
        )}
      </p>
      <a
        href={open ? `/badges/${badgeId}#criteria` : `/badges/${badgeId}?criteria=full#criteria`}
        onClick={toggle}
        aria-expanded={open}
        className="mt-2 inline-flex text-sm font-medium text-primary hover:underline"
        data-testid="criteria-toggle"
      >
        {open ? 'Show less' : 'Read more'}
        {/* descriptive to search engines and screen readers (not a bare "Read more") */}
        <span className="sr-only"> of the criteria</span>
      </a>
    </div>
  );
}
