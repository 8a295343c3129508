// Copies text to the clipboard through the main process (desktop/copyText: Electron's clipboard; the renderer has no
// clipboard permission) and says so in a live region.
import { useState } from 'react';
import { call } from '../api';
import { t } from '../i18n';

interface CopyButtonProps {
  readonly text: string;
  readonly label?: string;
  readonly testId?: string;
}

export function CopyButton({ text, label = t('payees.copy.copy'), testId }: CopyButtonProps): React.JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy(): Promise<void> {
    const result = await call('desktop/copyText', { text });
    setState(result.ok ? 'copied' : 'failed');
    window.setTimeout(() => setState('idle'), 2500);
  }
  return (
    <span className="copy">
      <button type="button" className="button button--small" onClick={() => void copy()} data-testid={testId}>
        {label}
      </button>
      <span className="copy__status" role="status">
        {state === 'copied' ? t('payees.copy.copied') : state === 'failed' ? t('payees.copy.failed') : ''}
      </span>
    </span>
  );
}
