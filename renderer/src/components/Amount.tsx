// An amount as the exact decimal string the engine sent (digits regrouped, never rounded), optionally hidden.
import { assetOf, groupAmount, HIDDEN_AMOUNT } from '../format';
import { t } from '../i18n';

interface AmountProps {
  readonly value: string | null | undefined;
  readonly currency?: string;
  readonly hidden?: boolean;
  readonly testId?: string;
}

export function Amount({ value, currency, hidden = false, testId }: AmountProps): React.JSX.Element {
  if (value === null || value === undefined) return <span className="amount amount--none">—</span>;
  return (
    <span className="amount" data-testid={testId} data-value={hidden ? undefined : value}>
      {hidden ? (
        <span aria-label={t('withdrawals.amount.hidden')}>{HIDDEN_AMOUNT}</span>
      ) : (
        <span className="amount__digits">{groupAmount(value)}</span>
      )}
      {currency === undefined ? null : <span className="amount__unit"> {assetOf(currency)}</span>}
    </span>
  );
}
