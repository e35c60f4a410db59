// Recovery codes as shown once (after switching two-step sign-in on, or replacing them):
// the list, and Copy, Download (.txt) and Print, so they can be kept somewhere safe.
import { useState } from 'react';
import Copy from 'lucide-react/icons/copy';
import Download from 'lucide-react/icons/download';
import Printer from 'lucide-react/icons/printer';
import { Button } from './ui';
import { toast, toastError } from '../lib/toast';

/** The codes as a text file: a header naming the account, one code a line. */
export function recoveryText(codes: string[], email: string): string {
  return ['Meritmark recovery codes' + (email ? ` for ${email}` : ''), 'Each code signs you in once. Keep them somewhere safe.', '', ...codes, ''].join('\r\n');
}

export function RecoveryCodes({ codes, email = '' }: { codes: string[]; email?: string }) {
  const [copied, setCopied] = useState(false);
  const text = recoveryText(codes, email);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      toast({ title: 'Copied!', variant: 'success' });
    } catch {
      toastError('Failed to copy to clipboard');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'meritmark-recovery-codes.txt';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const print = () => {
    // a window of its own holding only the codes (no page chrome, nothing else printed)
    const w = window.open('', '_blank', 'width=480,height=640');
    if (!w) {
      window.print();
      return;
    }
    const pre = w.document.createElement('pre');
    pre.textContent = text;
    pre.style.font = '16px/1.6 monospace';
    w.document.title = 'Meritmark recovery codes';
    w.document.body.appendChild(pre);
    w.focus();
    w.print();
  };
  return (
    <div className="space-y-3">
      <ul className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-4 font-mono text-sm" data-testid="recovery-code-list">
        {codes.map((c) => (
          <li key={c} data-testid="recovery-code">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={copy} data-testid="recovery-copy">
          <Copy aria-hidden="true" /> {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={download} data-testid="recovery-download">
          <Download aria-hidden="true" /> Download .txt
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={print} data-testid="recovery-print">
          <Printer aria-hidden="true" /> Print
        </Button>
      </div>
    </div>
  );
}
