// Under an amount field: what the typed text reads as in the person's locale ("Reads as 12,5 USDT."), grouped the way
// every screen groups amounts, so the person sees the exact amount before anything is signed; nothing when it is refused
// (the field's error then says why) or empty.
import { groupAmount, readTypedAmount } from '../format';
import { t } from '../i18n';

interface AmountReadingProps {
  /** What the person typed. */
  readonly text: string;
  /** The unit shown after the amount: the asset ("USDT"). */
  readonly unit: string;
  readonly testId?: string;
}

export function AmountReading({ text, unit, testId }: AmountReadingProps): React.JSX.Element | null {
  const read = readTypedAmount(text);
  if (!read.ok) return null;
  return (
    <span data-testid={testId}>
      {t('withdrawals.amountReading', { amount: groupAmount(read.amount), unit })}{' '}
    </span>
  );
}

/** The field error for a typed amount: why it was refused and what to type, or null when it reads (or is empty). */
export function amountRefusal(text: string): string | null {
  if (text.trim() === '') return null;
  const read = readTypedAmount(text);
  return read.ok ? null : read.problem;
}
