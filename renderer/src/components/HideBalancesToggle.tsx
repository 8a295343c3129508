// The "Hide balances" / "Show balances" button: flips the workstation's setting that every BalanceAmount follows.
import { t } from '../i18n';
import { useBalancesStore } from '../stores/balances';
import { useBalancesHidden } from './BalanceAmount';

export function HideBalancesToggle({ testId }: { readonly testId: string }): React.JSX.Element {
  const hidden = useBalancesHidden();
  return (
    <button type="button" className="button" aria-pressed={hidden} onClick={() => useBalancesStore.getState().toggleHidden()} data-testid={testId}>
      {hidden ? t('history.balances.show') : t('history.balances.hide')}
    </button>
  );
}
