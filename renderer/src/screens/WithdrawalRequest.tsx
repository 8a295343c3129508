// The withdrawal request form with live preflight (withdrawals/preflight, debounced): fee, amount received, minimum,
// balance after (hidden with "Hide balances", like every balance), address checks and look-alike warnings with the differing characters marked; then
// withdrawals/request as the initiating operator, whose confirmation shows the request's fingerprint to pass on. The
// amount is typed in the person's locale and read into the canonical decimal string (readTypedAmount) that preflight,
// the confirm dialog and the signed request all get; the field shows what it reads as, or why it was refused.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CURRENCIES, isCurrencySymbol, WITHDRAWAL_CURRENCIES } from '../../../electron/chains';
import type { PreflightIssue, WithdrawalPreflight, WithdrawalView } from '../../../electron/contract';
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
import { assetOf, currencyLabel, groupAmount, readTypedAmount, currencyNameOf } from '../format';
import { useDebounced } from '../hooks';
import { t } from '../i18n';
import { destinationHistoryFor, serviceAddressCheckFor } from '../i18n/sentences';
import { useBalancesStore } from '../stores/balances';
import { askOperator } from '../stores/operator-prompt';
import { useWithdrawalsStore, type WithdrawalDraft } from '../stores/withdrawals';
import { financialConfirmationText } from './withdrawal-labels';

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
      title: t('withdrawals.request.dialog.title'),
      description: t('withdrawals.request.dialog.description', {
        amount: groupAmount(requested.amount),
        asset: assetOf(draft.currency),
        currency: currencyLabel(draft.currency),
        address: draft.toAddress,
      }),
      confirmLabel: t('withdrawals.request.submit'),
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
  const addedNames = new Map(added.map((currency) => [currency.symbol, currencyNameOf(currency)]));
  const currencyOptions: readonly string[] = [...WITHDRAWAL_CURRENCIES, ...added.map((currency) => currency.symbol)];
  const fields = requestError?.fields;
  const decimals = isCurrencySymbol(draft.currency) ? CURRENCIES[draft.currency].decimals : null;
  return (
    <div className="request">
      <form className="card stack" onSubmit={(event) => void submit(event)} aria-labelledby="request-title" data-testid="@withdrawals/request-form">
        <h2 id="request-title">{t('withdrawals.request.title')}</h2>
        <div className="grid-2">
          <Field label={t('withdrawals.field.currency')} error={fieldError(fields, 'currency') ?? issuesFor(errors, 'currency')} testId="@withdrawals/currency">
            {(control) => (
              <Select
                control={control}
                value={draft.currency}
                options={currencyOptions}
                label={(symbol) => (isCurrencySymbol(symbol) ? `${currencyLabel(symbol)} — ${symbol}` : t('withdrawals.request.currencyNoRules', { name: addedNames.get(symbol) ?? symbol, symbol }))}
                onChange={(symbol) => update('currency', symbol)}
                testId="@withdrawals/currency"
              />
            )}
          </Field>
          <Field
            label={t('withdrawals.request.amount', { asset: assetOf(draft.currency) })}
            hint={
              <>
                <AmountReading text={draft.amount} unit={assetOf(draft.currency)} testId="@withdrawals/amount-reading" />
                {decimals === null ? t('withdrawals.request.amountNoRules') : t('withdrawals.request.amountDecimals', { decimals })}
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
        <Field label={t('withdrawals.request.toAddress')} error={fieldError(fields, 'toAddress') ?? issuesFor(errors, 'toAddress')} testId="@withdrawals/to-address">
          {(control) => (
            <input {...control} className="input input--mono" autoComplete="off" spellCheck={false} value={draft.toAddress} onChange={(event) => update('toAddress', event.target.value)} required data-testid="@withdrawals/to-address" />
          )}
        </Field>
        <fieldset className="fieldset">
          <legend>{t('withdrawals.request.type')}</legend>
          <label className="radio">
            <input type="radio" name="withdrawType" value="normal" checked={draft.withdrawType === 'normal'} onChange={() => update('withdrawType', 'normal')} />
            {t('withdrawals.request.typeNormal')}
          </label>
          <label className="radio">
            <input type="radio" name="withdrawType" value="financialConfirmation" checked={draft.withdrawType === 'financialConfirmation'} onChange={() => update('withdrawType', 'financialConfirmation')} data-testid="@withdrawals/financial-confirmation" />
            {t('withdrawals.financialConfirmation.name')}
          </label>
          <p className="field__hint">{financialConfirmationText()}</p>
          {issuesFor(errors, 'withdrawType') === null && fieldError(fields, 'withdrawType') === null ? null : (
            <p className="field__error" data-testid="@withdrawals/withdraw-type-error">
              {fieldError(fields, 'withdrawType') ?? issuesFor(errors, 'withdrawType')}
            </p>
          )}
        </fieldset>
        <Field label={t('withdrawals.request.memo')} error={fieldError(fields, 'memo')} testId="@withdrawals/memo">
          {(control) => <input {...control} className="input" maxLength={255} value={draft.memo} onChange={(event) => update('memo', event.target.value)} data-testid="@withdrawals/memo" />}
        </Field>
        <ErrorNotice error={requestError} testId="@withdrawals/request-error" />
        {created === null ? null : (
          <div role="status" data-testid="@withdrawals/request-created">
            <p className="verdict verdict--ok">{t('withdrawals.request.created')}</p>
            <Fingerprint
              label={t('withdrawals.request.createdFingerprint')}
              value={created.fingerprint}
              compare={t('withdrawals.request.createdFingerprintCompare')}
              testId="@withdrawals/request-fingerprint"
            />
          </div>
        )}
        <div>
          <button type="submit" className="button button--primary" disabled={refusal !== null || (preflight !== null && !preflight.ok)} data-testid="@withdrawals/request-button">
            {t('withdrawals.request.submit')}
          </button>
        </div>
      </form>
      <PreflightPanel preflight={preflight} error={preflightError} checking={checking} currency={debounced.currency} typed={debounced.toAddress} />
    </div>
  );
}


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
        <h2 id="preflight-title">{t('withdrawals.preflight.title')}</h2>
        <HideBalancesToggle testId="@withdrawals/hide-toggle" />
      </div>
      <div aria-live="polite">
        {preflight === null && error === null ? <p className="muted">{t('withdrawals.preflight.empty')}</p> : null}
        <ErrorNotice error={error} />
        {preflight === null ? null : (
          <>
            <p className={`verdict verdict--${preflight.ok ? 'ok' : 'bad'}`} data-testid="@withdrawals/preflight-verdict">
              {checking ? `${t('withdrawals.checking')} ` : null}
              {preflight.ok ? t('withdrawals.preflight.ready') : t('withdrawals.preflight.notPossible')}
            </p>
            <dl className="facts facts--numbers">
              <dt>{t('withdrawals.field.fee')}</dt>
              <dd data-testid="@withdrawals/preflight-fee">
                <Amount value={preflight.fee} currency={currency} />
              </dd>
              <dt>{t('withdrawals.preflight.received')}</dt>
              <dd data-testid="@withdrawals/preflight-received">
                <Amount value={preflight.amountReceived} currency={currency} />
              </dd>
              <dt>{t('withdrawals.preflight.totalDebited')}</dt>
              <dd>
                <Amount value={preflight.totalDebited} currency={currency} />
              </dd>
              <dt>{t('withdrawals.preflight.minimum')}</dt>
              <dd data-testid="@withdrawals/preflight-minimum">
                <Amount value={preflight.minimum} currency={currency} />
              </dd>
              <dt>{t('withdrawals.preflight.available')}</dt>
              <dd data-testid="@withdrawals/preflight-available">
                <BalanceAmount value={preflight.available} currency={currency} />
              </dd>
              <dt>{t('withdrawals.preflight.balanceAfter')}</dt>
              <dd data-testid="@withdrawals/preflight-balance-after">
                <BalanceAmount value={preflight.balanceAfter} currency={currency} />
              </dd>
              <dt>{t('withdrawals.preflight.requiredApprovals')}</dt>
              <dd>{preflight.requiredApprovals}</dd>
              <dt>{t('withdrawals.preflight.dailyLimitLeft')}</dt>
              <dd>{preflight.dailyLimitRemaining === null ? t('withdrawals.noDailyLimit') : <Amount value={preflight.dailyLimitRemaining} currency={currency} />}</dd>
              <dt>{t('withdrawals.preflight.destination')}</dt>
              <dd data-testid="@withdrawals/destination-history">
                {typed === '' ? '—' : preflight.newDestination === true ? <span className="badge badge--warn">{destinationHistoryFor(true)}</span> : destinationHistoryFor(preflight.newDestination)}
              </dd>
              <dt>{t('withdrawals.preflight.serviceCheck')}</dt>
              <dd data-testid="@withdrawals/preflight-service-check">
                {serviceAddressCheckFor(preflight.serviceAddressCheck)}
              </dd>
            </dl>
            {otherIssues.length === 0 ? null : (
              <div className="notice notice--error" role="alert">
                <ul>
                  {otherIssues.map((issue) => (
                    <li key={`${issue.field}:${issue.message}`} data-testid={`@withdrawals/preflight-issue-${issue.field}`}>
                      {balancesHidden && issue.field === 'balance' ? t('withdrawals.preflight.balanceHidden') : issue.message}
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
