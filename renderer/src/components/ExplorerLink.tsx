// Opens an address or a transaction in its chain's block explorer, in the system browser: the window asks main with
// desktop/openExplorer (chain, kind, value) and main builds the link from its fixed table — the window never passes a
// URL. Shown only for a value the chain's rules accept (the same check main makes), with the explorer's name.
import { useState } from 'react';
import { explorerLink, type Chain, type ExplorerTarget } from '../../../electron/chains';
import { call } from '../api';
import { shorten } from '../format';
import { t } from '../i18n';

interface ExplorerLinkProps {
  readonly chain: Chain;
  readonly target: ExplorerTarget;
  readonly value: string;
  /** What the link shows (a shortened txid in a table); "Explorer name ↗" when omitted. */
  readonly children?: React.ReactNode;
  readonly className?: string;
  readonly testId?: string;
}

export function ExplorerLink({ chain, target, value, children, className, testId }: ExplorerLinkProps): React.JSX.Element | null {
  const [problem, setProblem] = useState<string | null>(null);
  const link = explorerLink(chain, target, value);
  if (!link.ok) return children === undefined ? null : <>{children}</>;
  async function open(): Promise<void> {
    const result = await call('desktop/openExplorer', { chain, target, value });
    setProblem(result.ok ? null : result.error.message);
  }
  return (
    <>
      <button
        type="button"
        className={`button button--link${className === undefined ? '' : ` ${className}`}`}
        onClick={(event) => {
          // A table row may be clickable too: opening the explorer is not selecting the row.
          event.stopPropagation();
          void open();
        }}
        title={t('payees.explorer.title', { value, explorer: link.explorer })}
        data-testid={testId}
        data-explorer={link.explorer}
      >
        {/* The accessible name starts with the visible text, then says what the button does. */}
        {children ?? link.explorer}
        {children === undefined ? <span aria-hidden="true"> ↗</span> : null}
        <span className="visually-hidden">
          {children === undefined
            ? `: ${t(target === 'address' ? 'payees.explorer.openAddress' : 'payees.explorer.openTransaction', { value: shorten(value, 6) })}`
            : ` ${t('payees.explorer.openOn', { explorer: link.explorer })}`}
        </span>
      </button>
      {problem === null ? null : (
        <span role="alert" className="small explorer-link__problem">
          {problem}
        </span>
      )}
    </>
  );
}
