// The withdrawal request form with live preflight (withdrawals/preflight, debounced): fee, amount received, minimum,
// balance after (hidden with "Hide balances", like every balance), address checks and look-alike warnings with the differing characters marked; then
// withdrawals/request as the initiating operator, whose confirmation shows the request's fingerprint to pass on. The
// amount is typed in the person's locale and read into the canonical decimal string (readTypedAmount) that preflight,
// the confirm dialog and the signed request all get; the field shows what it reads as, or why it was refused.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CURRENCIES, isCurrencySymbol, WITHDRAWAL_CURRENCIES } from '../../../electron/chains';
import { destinationHistoryWords, type PreflightIssue, SERVICE_ADDRESS_CHECK_WORDS, type WithdrawalPreflight, type WithdrawalView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { LookAlikeWarnings } from '../components/LookAlikeWarnings';
import { Amount } from '../components/Amount';
import { AmountReading, amountRefusal } from '../components/AmountReading';
import { BalanceAmount, useBalancesHidden } from '../components/BalanceAmount';
import { ErrorNotice } from '../components/ErrorNotice';
import { Fingerprint } from '../components/Fingerprint';
import { HideBalancesToggle } from '../components/HideBalancesToggle';
import { Select } from '../components/Select';
import { Field, fieldError } from '../components/Field';
import { assetOf, currencyLabel, groupAmount, readTypedAmount } from '../format';
import { useDebounced } from '../hooks';
import { useBalancesStore } from '../stores/balances';
import { askOperator } from '../stores/operator-prompt';
import { useWithdrawalsStore, type WithdrawalDraft } from '../stores/withdrawals';
import { FINANCIAL_CONFIRMATION_TEXT } from './withdrawal-labels';

const EMPTY_DRAFT: WithdrawalDraft = { currency: 'trx.usdt', amount: '', toAddress: '', withdrawType: 'normal', memo: '' };

/** The draft with its typed amount replaced by the canonical decimal string it reads as ('' when empty or refused). */
function canonicalDraft(draft: WithdrawalDraft): WithdrawalDraft {
  const read = readTypedAmount(draft.amount);
  return { ...draft, amount: read.ok ? read.amount : '' };
}

function issuesFor(issues: readonly PreflightIssue[] | undefined, field: PreflightIssue['field']): string | null {
  const messages = (issues ?? []).filter((issue) => issue.field === field).map((issue) => issue.message);
  return messages.length === 0 ? null : messages.join(' ');
}

export function WithdrawalRequest(): React.JSX.Element {
  const [draft, setDraft] = useState<WithdrawalDraft>(EMPTY_DRAFT);
  const debounced = useDebounced(draft, 350);
  const [preflight, setPreflight] = useState<WithdrawalPreflight | null>(null);
  const [preflightError, setPreflightError] = useState<ContractError | null>(null);
  const [checking, setChecking] = useState(false);
  const [requestError, setRequestError] = useState<ContractError | null>(null);
  const [created, setCreated] = useState<WithdrawalView | null>(null);
  const sequence = useRef(0);

  useEffect(() => {
    sequence.current += 1;
    const mine = sequence.current;
    const checked = canonicalDraft(debounced);
    if (checked.amount === '' && checked.toAddress === '') {
      setPreflight(null);
      setPreflightError(null);
      setChecking(false);
      return;
    }
    setChecking(true);
    void useWithdrawalsStore
      .getState()
      .preflight(checked)
      .then((result) => {
        if (mine !== sequence.current) return;
        setChecking(false);
        setPreflight(result.ok ? result.value : null);
        setPreflightError(result.ok ? null : result.error);
      });
  }, [debounced]);

  const update = <K extends keyof WithdrawalDraft>(key: K, value: WithdrawalDraft[K]): void => {
    setDraft({ ...draft, [key]: value });
    setCreated(null);
  };

  const typedAmount = readTypedAmount(draft.amount);
  const refusal = amountRefusal(draft.amount);

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!typedAmount.ok) return;
    const requested = { ...draft, amount: typedAmount.amount };
    const result = await askOperator({
      title: 'Request a withdrawal',
      description: `${groupAmount(requested.amount)} ${assetOf(draft.currency)} (${currencyLabel(draft.currency)}) to ${draft.toAddress}. Other operators approve it before it is sent.`,
      confirmLabel: 'Request withdrawal',
      run: (as) => useWithdrawalsStore.getState().request(requested, as),
    });
    if (result === null) return;
    if (result.ok) {
      setRequestError(null);
      setCreated(result.value.withdrawal);
      setDraft({ ...EMPTY_DRAFT, currency: draft.currency });
    } else setRequestError(result.error);
  }

  const errors = preflight?.errors;
  // The 13 with address rules, then any currency the service added later: choosing one shows why it cannot be withdrawn.
  const added = useBalancesStore((state) => state.currencies).filter((currency) => !currency.addressRules);
  const addedNames = new Map(added.map((currency) => [currency.symbol, currency.displayName]));
  const currencyOptions: readonly string[] = [...WITHDRAWAL_CURRENCIES, ...added.map((currency) => currency.symbol)];
  const fields = requestError?.fields;
  const decimals = isCurrencySymbol(draft.currency) ? CURRENCIES[draft.currency].decimals : null;
  return (
    <div className="request">
      <form className="card stack" onSubmit={(event) => void submit(event)} aria-labelledby="request-title" data-testid="@withdrawals/request-form">
        <h2 id="request-title">New withdrawal request</h2>
        <div className="grid-2">
          <Field label="Currency" error={fieldError(fields, 'currency') ?? issuesFor(errors, 'currency')} testId="@withdrawals/currency">
            {(control) => (
              <Select
                control={control}
                value={draft.currency}
                options={currencyOptions}
                label={(symbol) => (isCurrencySymbol(symbol) ? `${currencyLabel(symbol)} — ${symbol}` : `${addedNames.get(symbol) ?? symbol} — ${symbol} (no address rules yet)`)}
                onChange={(symbol) => update('currency', symbol)}
                testId="@withdrawals/currency"
              />
            )}
          </Field>
          <Field
            label={`Amount (${assetOf(draft.currency)})`}
            hint={
              <>
                <AmountReading text={draft.amount} unit={assetOf(draft.currency)} testId="@withdrawals/amount-reading" />
                {decimals === null ? 'The desk cannot withdraw in this currency yet: the preflight says why.' : `Up to ${decimals} decimal places.`}
              </>
            }
            error={refusal ?? fieldError(fields, 'amount') ?? issuesFor(errors, 'amount')}
            testId="@withdrawals/amount"
          >
            {(control) => (
              <input {...control} className="input input--mono" inputMode="decimal" autoComplete="off" value={draft.amount} onChange={(event) => update('amount', event.target.value)} required data-testid="@withdrawals/amount" />
            )}
          </Field>
        </div>
        <Field label="Destination address" error={fieldError(fields, 'toAddress') ?? issuesFor(errors, 'toAddress')} testId="@withdrawals/to-address">
          {(control) => (
            <input {...control} className="input input--mono" autoComplete="off" spellCheck={false} value={draft.toAddress} onChange={(event) => update('toAddress', event.target.value)} required data-testid="@withdrawals/to-address" />
          )}
        </Field>
        <fieldset className="fieldset">
          <legend>Withdrawal type</legend>
          <label className="radio">
            <input type="radio" name="withdrawType" value="normal" checked={draft.withdrawType === 'normal'} onChange={() => update('withdrawType', 'normal')} />
            Normal — the platform executes it after its own checks
          </label>
          <label className="radio">
            <input type="radio" name="withdrawType" value="financialConfirmation" checked={draft.withdrawType === 'financialConfirmation'} onChange={() => update('withdrawType', 'financialConfirmation')} data-testid="@withdrawals/financial-confirmation" />
            Financial confirmation
          </label>
          <p className="field__hint">{FINANCIAL_CONFIRMATION_TEXT}</p>
          {issuesFor(errors, 'withdrawType') === null && fieldError(fields, 'withdrawType') === null ? null : (
            <p className="field__error" data-testid="@withdrawals/withdraw-type-error">
              {fieldError(fields, 'withdrawType') ?? issuesFor(errors, 'withdrawType')}
            </p>
          )}
        </fieldset>
        <Field label="Memo (optional, sent to the service with the order as its remark)" error={fieldError(fields, 'memo')} testId="@withdrawals/memo">
          {(control) => <input {...control} className="input" maxLength={255} value={draft.memo} onChange={(event) => update('memo', event.target.value)} data-testid="@withdrawals/memo" />}
        </Field>
        <ErrorNotice error={requestError} testId="@withdrawals/request-error" />
        {created === null ? null : (
          <div role="status" data-testid="@withdrawals/request-created">
            <p className="verdict verdict--ok">Request created. It now waits in the approvals queue.</p>
            <Fingerprint
              label="Its fingerprint"
              value={created.fingerprint}
              compare="Tell the approvers: each one sees this fingerprint in their dialog and checks it is the same."
              testId="@withdrawals/request-fingerprint"
            />
          </div>
        )}
        <div>
          <button type="submit" className="button button--primary" disabled={refusal !== null || (preflight !== null && !preflight.ok)} data-testid="@withdrawals/request-button">
            Request withdrawal
          </button>
        </div>
      </form>
      <PreflightPanel preflight={preflight} error={preflightError} checking={checking} currency={debounced.currency} typed={debounced.toAddress} />
    </div>
  );
}

/** The balance problem without the figures the engine's message names (they would show the hidden balance). */
const HIDDEN_BALANCE_ISSUE = 'the available balance does not cover amount plus fee (balances are hidden: show them to see the figures)';

interface PreflightPanelProps {
  readonly preflight: WithdrawalPreflight | null;
  readonly error: ContractError | null;
  readonly checking: boolean;
  readonly currency: string;
  readonly typed: string;
}

function PreflightPanel({ preflight, error, checking, currency, typed }: PreflightPanelProps): React.JSX.Element {
  const balancesHidden = useBalancesHidden();
  const otherIssues = (preflight?.errors ?? []).filter((issue) => issue.field === 'balance' || issue.field === 'dailyLimit' || issue.field === 'service');
  return (
    <section className="card preflight" aria-labelledby="preflight-title" aria-busy={checking} data-testid="@withdrawals/preflight">
      <div className="card__head">
        <h2 id="preflight-title">Preflight</h2>
        <HideBalancesToggle testId="@withdrawals/hide-toggle" />
      </div>
      <div aria-live="polite">
        {preflight === null && error === null ? <p className="muted">Type an amount and a destination: fees, limits and address checks appear here as you type.</p> : null}
        <ErrorNotice error={error} />
        {preflight === null ? null : (
          <>
            <p className={`verdict verdict--${preflight.ok ? 'ok' : 'bad'}`} data-testid="@withdrawals/preflight-verdict">
              {checking ? 'Checking… ' : null}
              {preflight.ok ? 'Ready to request.' : 'Not possible as typed — see the problems below.'}
            </p>
            <dl className="facts facts--numbers">
              <dt>Fee</dt>
              <dd data-testid="@withdrawals/preflight-fee">
                <Amount value={preflight.fee} currency={currency} />
              </dd>
              <dt>Recipient receives</dt>
              <dd data-testid="@withdrawals/preflight-received">
                <Amount value={preflight.amountReceived} currency={currency} />
              </dd>
              <dt>Total debited (amount + fee)</dt>
              <dd>
                <Amount value={preflight.totalDebited} currency={currency} />
              </dd>
              <dt>Minimum withdrawal</dt>
              <dd data-testid="@withdrawals/preflight-minimum">
                <Amount value={preflight.minimum} currency={currency} />
              </dd>
              <dt>Available now</dt>
              <dd data-testid="@withdrawals/preflight-available">
                <BalanceAmount value={preflight.available} currency={currency} />
              </dd>
              <dt>Balance after</dt>
              <dd data-testid="@withdrawals/preflight-balance-after">
                <BalanceAmount value={preflight.balanceAfter} currency={currency} />
              </dd>
              <dt>Approvals required</dt>
              <dd>{preflight.requiredApprovals}</dd>
              <dt>Daily limit left</dt>
              <dd>{preflight.dailyLimitRemaining === null ? 'no daily limit' : <Amount value={preflight.dailyLimitRemaining} currency={currency} />}</dd>
              <dt>Destination</dt>
              <dd data-testid="@withdrawals/destination-history">
                {typed === '' ? '—' : preflight.newDestination === true ? <span className="badge badge--warn">{destinationHistoryWords(true)}</span> : destinationHistoryWords(preflight.newDestination)}
              </dd>
              <dt>Service address check</dt>
              <dd data-testid="@withdrawals/preflight-service-check">
                {SERVICE_ADDRESS_CHECK_WORDS[preflight.serviceAddressCheck]}
              </dd>
            </dl>
            {otherIssues.length === 0 ? null : (
              <div className="notice notice--error" role="alert">
                <ul>
                  {otherIssues.map((issue) => (
                    <li key={`${issue.field}:${issue.message}`} data-testid={`@withdrawals/preflight-issue-${issue.field}`}>
                      {balancesHidden && issue.field === 'balance' ? HIDDEN_BALANCE_ISSUE : issue.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {preflight.warnings.length === 0 ? null : (
              <div className="notice notice--warn" data-testid="@withdrawals/warnings">
                <ul>
                  {preflight.warnings.map((issue) => (
                    <li key={`${issue.field}:${issue.message}`}>{issue.message}</li>
                  ))}
                </ul>
              </div>
            )}
            <LookAlikeWarnings typed={typed} warnings={preflight.lookAlike} testId="@withdrawals/lookalike" />
          </>
        )}
      </div>
    </section>
  );
}
