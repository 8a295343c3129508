// Copies text to the clipboard and says so (a live region); falls back to selecting the text's element.
import { useState } from 'react';

interface CopyButtonProps {
  readonly text: string;
  readonly label?: string;
  readonly testId?: string;
}

export function CopyButton({ text, label = 'Copy', testId }: CopyButtonProps): React.JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 2500);
  }
  return (
    <span className="copy">
      <button type="button" className="button button--small" onClick={() => void copy()} data-testid={testId}>
        {label}
      </button>
      <span className="copy__status" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text and press Ctrl+C' : ''}
      </span>
    </span>
  );
}
