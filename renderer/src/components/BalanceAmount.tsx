// An amount of the merchant's balance (available, frozen, balance after a withdrawal): hidden whenever "Hide balances"
// is on, on every screen, so no screen has to remember to check the setting itself.
import { useBalancesStore } from '../stores/balances';
import { Amount } from './Amount';

interface BalanceAmountProps {
  readonly value: string | null | undefined;
  readonly currency?: string;
  readonly testId?: string;
}

/** Whether balances are hidden on this workstation (the "Hide balances" setting). */
export function useBalancesHidden(): boolean {
  return useBalancesStore((state) => state.hidden);
}

export function BalanceAmount({ value, currency, testId }: BalanceAmountProps): React.JSX.Element {
  const hidden = useBalancesHidden();
  return <Amount value={value} currency={currency} hidden={hidden} testId={testId} />;
}
