// Settings: per-currency withdrawal policies (policies/list, policies/set: applied at once, or waiting for another
// admin's confirmation), the callback listener (callbacks/state, start, stop) and its refused callbacks (callbacks/refusals), the idle lock timeout
// (settings/setLockTimeout), the reporting time zone (settings/setReportingTimeZone), when a withdrawal counts as stuck
// (settings/stuckThresholds, settings/setStuckThresholds: an admin, audited), an operator's notifications
// (notifications/preferences, setPreferences: each operator chooses their own, with their passphrase), this
// workstation's "keep running in the tray" and the window's language (desktop/setPreferences), team mode (TeamDesk.tsx) and the diagnostics file for support
// (desktop/exportDiagnostics), the emergency freeze (SendingFreeze.tsx) and beside it the governance (Governance.tsx: the loosening delay, vetoes). The policy editor shows what the platform allows the merchant (merchant/info); the engine
// refuses a policy whose orders the platform would refuse; it edits the address-book options too ("only from book",
// "a new destination waits N hours"). Amounts (thresholds, the daily limit, deposit notices) are typed in the person's locale and
// read with readTypedAmount, the reading shown under the field. Operators have their own screen.
import { useEffect, useState, type FormEvent } from 'react';
import { WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../../../electron/chains';
import {
  type CallbackRefusalCode,
  type CallbackRefusalsView,
  LOG_FILE_NAME,
  LOG_FOLDER_NAME,
  ORDER_FINAL_SCOPES,
  WATCHED_ORDER_STATUSES,
  type StuckThresholdsView,
  type WatchedOrderStatus,
  type NotificationPreferences,
  type NotificationPreferencesView,
  type OrderFinalScope,
  type PolicyChangeView,
  type PolicyPreviewView,
  type PolicyView,
} from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { useFileAction } from '../file-action';
import { Amount } from '../components/Amount';
import { LANGUAGE_CHOICES } from '../../../electron/contract/desktop';
import { canonicalTimeZone, workstationTimeZone } from '../../../electron/contract/time-zone';
import { tierGroupsSpec } from '../../../electron/contract/tier-groups';
import { parseTierGroupsSpecFor, tierGroupsSyntaxFor, tierGroupsTextFor } from '../i18n/sentences';
import { DateTime, useReportingTimeZone } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Select } from '../components/Select';
import { Field, fieldError } from '../components/Field';
import { AmountReading, amountRefusal } from '../components/AmountReading';
import { assetOf, currencyLabel, formatDuration, groupAmount, readTypedAmount, typedAmountText } from '../format';
import { localeFor, t, tRich, useLanguageStore, type Language, type MessageId } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useSessionStore } from '../stores/session';
import { useNotificationsStore } from '../stores/notifications';
import { useOperatorsStore } from '../stores/operators';
import { useMerchantStore } from '../stores/merchant';
import { draftOfPolicy, useSettingsStore, type PolicyDraft } from '../stores/settings';
import { Governance } from './Governance';
import { SendingFreeze } from './SendingFreeze';
import { TeamDesk } from './TeamDesk';
import { Webhooks } from './Webhooks';

/** Approvals a threshold may require: the engine allows 1 to 5 (core/withdrawals/policy.ts MAX_APPROVALS). */
const APPROVAL_COUNTS: readonly string[] = ['1', '2', '3', '4', '5'];

export function Settings(): React.JSX.Element {
  useEffect(() => {
    const store = useSettingsStore.getState();
    void useOperatorsStore.getState().load();
    void store.loadPolicies();
    void store.loadCallbacks();
  }, []);
  return (
    <>
      <SendingFreeze />
      <Governance />
      <Policies />
      <div className="grid-2">
        <CallbackListener />
        <LockTimeout />
        <ReportingTimeZone />
        <WindowLanguage />
        <StuckThresholds />
      </div>
      <div className="grid-2">
        <Notifications />
        <Workstation />
      </div>
      <Webhooks />
      <TeamDesk />
      <Diagnostics />
    </>
  );
}

function Policies(): React.JSX.Element {
  const policies = useSettingsStore((state) => state.policies);
  const proposals = useOperatorsStore((state) => state.roster?.proposals ?? []);
  const [editing, setEditing] = useState<CurrencySymbol | null>(null);
  const [saved, setSaved] = useState<PolicyChangeView | null>(null);
  const byCurrency = new Map(policies.map((policy) => [policy.currency, policy]));
  const waiting = proposals.filter((proposal) => proposal.kind === 'policy' && proposal.state === 'open');
  return (
    <section className="card" aria-labelledby="policies-title">
      <h2 id="policies-title">{t('settings.policies.title')}</h2>
      <p className="muted small">{t('settings.policies.intro')}</p>
      <div className="table-wrap">
        <table className="table table--dense" data-testid="@settings/policies">
          <thead>
            <tr>
              <th scope="col">{t('settings.policies.column.currency')}</th>
              <th scope="col">{t('settings.policies.column.approvals')}</th>
              <th scope="col">{t('settings.policies.column.dailyLimit')}</th>
              <th scope="col">{t('settings.policies.column.financialConfirmation')}</th>
              <th scope="col">{t('settings.policies.column.onlyFromBook')}</th>
              <th scope="col">{t('settings.policies.column.newDestinationWaits')}</th>
              <th scope="col">{t('settings.policies.column.approvalsExpire')}</th>
              <th scope="col">{t('settings.policies.column.unusualAmount')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.policies.column.edit')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {WITHDRAWAL_CURRENCIES.map((symbol) => {
              const policy = byCurrency.get(symbol);
              return (
                <tr key={symbol}>
                  <th scope="row">{currencyLabel(symbol)}</th>
                  <td className="small" data-testid={`@settings/policy-approvals-${symbol}`}>
                    {policy === undefined || policy.thresholds.length === 0
                      ? t('settings.policies.default')
                      : policy.thresholds
                          .map((threshold) =>
                            threshold.groups === undefined
                              ? t('settings.policies.threshold', { above: threshold.above, approvals: threshold.approvals })
                              : t('settings.policies.thresholdFromGroups', { above: threshold.above, approvals: threshold.approvals, groups: tierGroupsTextFor(threshold.groups) }),
                          )
                          .join(' · ')}
                  </td>
                  <td>{policy?.dailyLimit === null || policy === undefined ? t('settings.policies.noDailyLimit') : <Amount value={policy.dailyLimit} currency={symbol} />}</td>
                  <td>{policy?.useFinancialConfirmation === true ? t('settings.policies.yes') : t('settings.policies.no')}</td>
                  <td data-testid={`@settings/policy-only-from-book-${symbol}`}>{policy?.onlyFromBook === true ? t('settings.policies.yes') : t('settings.policies.no')}</td>
                  <td data-testid={`@settings/policy-wait-${symbol}`}>{policy === undefined || policy.newDestinationWaitHours === 0 ? t('settings.policies.no') : t('settings.policies.waitHours', { hours: policy.newDestinationWaitHours })}</td>
                  <td data-testid={`@settings/policy-valid-hours-${symbol}`}>{policy === undefined || policy.approvalValidHours === null ? t('settings.policies.neverExpire') : t('settings.policies.expireAfter', { hours: policy.approvalValidHours })}</td>
                  <td data-testid={`@settings/policy-unusual-${symbol}`}>
                    {policy === undefined || policy.unusualAmount === null
                      ? t('settings.policies.noUnusualRule')
                      : t(policy.unusualAmount.firstPayment ? 'settings.policies.unusualAndFirst' : 'settings.policies.unusual', { factor: groupAmount(policy.unusualAmount.factor) })}
                  </td>
                  <td>
                    <button type="button" className="button button--small" onClick={() => setEditing(symbol)} aria-label={t('settings.policies.editLabel', { currency: currencyLabel(symbol) })}>
                      {t('settings.policies.edit')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {editing === null ? null : (
        <PolicyEditor
          key={editing}
          currency={editing}
          policy={byCurrency.get(editing)}
          onDone={(change) => {
            setEditing(null);
            if (change !== null) setSaved(change);
          }}
        />
      )}
      <div role="status" data-testid="@settings/policy-status">
        {saved === null ? null : saved.applied ? (
          <p className="verdict verdict--ok">{t('settings.policies.inForce', { currency: currencyLabel(saved.policy.currency) })}</p>
        ) : (
          <p className="verdict verdict--warn">{t('settings.policies.waitingForConfirmation', { currency: currencyLabel(saved.policy.currency) })}</p>
        )}
      </div>
      {waiting.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@settings/policy-pending">
          <p className="notice__title">{t('settings.policies.pending.title')}</p>
          <ul>
            {waiting.map((proposal) => (
              <li key={proposal.id}>
                {tRich('settings.policies.pending.item', { summary: proposal.summary, proposer: proposal.proposer, when: <DateTime at={proposal.at} /> })}
              </li>
            ))}
          </ul>
          <p className="notice__detail">{t('settings.policies.pending.detail')}</p>
        </div>
      )}
    </section>
  );
}

interface ThresholdRow {
  readonly above: string;
  readonly approvals: string;
  /** The tier's approval groups as typed (contract/tier-groups: `finance+treasury-leads|cfo:2`); '' for none. */
  readonly groups: string;
}

interface PolicyEditorProps {
  readonly currency: CurrencySymbol;
  readonly policy: PolicyView | undefined;
  /** The change, or null when the editor was cancelled. */
  readonly onDone: (change: PolicyChangeView | null) => void;
}

/** The typed wait in whole hours ('' is 0), or null when it is not a whole number. */
function waitHoursValue(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return /^[0-9]{1,6}$/.test(trimmed) ? Number(trimmed) : null;
}

/** The typed approval validity: undefined ('' : approvals never expire), whole hours, or null when it is not that. */
function validHoursValue(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^[0-9]{1,6}$/.test(trimmed) && Number(trimmed) >= 1 ? Number(trimmed) : null;
}

/** The form's fields the engine cannot be asked about yet, by field name (the contract's paths), with what to type. */
type DraftProblems = Readonly<Record<string, string>>;

function PolicyEditor({ currency, policy, onDone }: PolicyEditorProps): React.JSX.Element {
  const [thresholds, setThresholds] = useState<ThresholdRow[]>(
    (policy?.thresholds ?? []).map((threshold) => ({ above: typedAmountText(threshold.above), approvals: String(threshold.approvals), groups: tierGroupsSpec(threshold.groups) })),
  );
  const [dailyLimit, setDailyLimit] = useState(policy?.dailyLimit === null || policy?.dailyLimit === undefined ? '' : typedAmountText(policy.dailyLimit));
  const [financial, setFinancial] = useState(policy?.useFinancialConfirmation ?? false);
  const [onlyFromBook, setOnlyFromBook] = useState(policy?.onlyFromBook ?? false);
  const [waitHours, setWaitHours] = useState(String(policy?.newDestinationWaitHours ?? 0));
  const [validHours, setValidHours] = useState(policy?.approvalValidHours === null || policy === undefined ? '' : String(policy.approvalValidHours));
  const [unusualFactor, setUnusualFactor] = useState(policy?.unusualAmount === null || policy?.unusualAmount === undefined ? '' : typedAmountText(policy.unusualAmount.factor));
  const [firstPayment, setFirstPayment] = useState(policy?.unusualAmount?.firstPayment ?? false);
  /** Whether a save was tried: from then on the form's own problems are shown next to their fields. */
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const groupsInForce = useOperatorsStore((state) => state.groups);
  const groupNames = (groupsInForce?.groups ?? []).map((group) => group.name);
  /**
   * The policy the form describes, on top of the policy in force (draftOfPolicy: a field the form does not show is kept),
   * or what to fix first.
   */
  function draftOf(): { readonly draft: PolicyDraft; readonly problems: null } | { readonly draft: null; readonly problems: DraftProblems } {
    const problems: Record<string, string> = {};
    const newDestinationWaitHours = waitHoursValue(waitHours);
    if (newDestinationWaitHours === null) problems['newDestinationWaitHours'] = t('settings.editor.problem.waitHours');
    const approvalValidHours = validHoursValue(validHours);
    if (approvalValidHours === null) problems['approvalValidHours'] = t('settings.editor.problem.validHours');
    const rows = thresholds.map((row, index) => {
      const groups = parseTierGroupsSpecFor(row.groups);
      if (!groups.ok) problems[`thresholds.${index}.groups`] = `${groups.problem}.`;
      const above = readTypedAmount(row.above);
      if (!above.ok) problems[`thresholds.${index}.above`] = above.problem;
      return { above: above.ok ? above.amount : '', approvals: Number.parseInt(row.approvals, 10), ...(groups.ok && groups.groups !== undefined ? { groups: groups.groups.map((terms) => [...terms]) } : {}) };
    });
    const limit = dailyLimit.trim() === '' ? null : readTypedAmount(dailyLimit);
    if (limit !== null && !limit.ok) problems['dailyLimit'] = limit.problem;
    // A ratio, typed like an amount in the person's locale ("2,5" in German).
    const factor = unusualFactor.trim() === '' ? null : readTypedAmount(unusualFactor);
    if (factor !== null && !factor.ok) problems['unusualAmount.factor'] = factor.problem;
    if (newDestinationWaitHours === null || approvalValidHours === null || Object.keys(problems).length > 0) return { draft: null, problems };
    const base = draftOfPolicy(currency, policy);
    const { approvalValidHours: _kept, unusualAmount: _unusual, ...rest } = base;
    return {
      draft: {
        ...rest,
        thresholds: rows,
        dailyLimit: limit?.ok === true ? limit.amount : null,
        useFinancialConfirmation: financial,
        onlyFromBook,
        newDestinationWaitHours,
        ...(approvalValidHours === undefined ? {} : { approvalValidHours }),
        ...(factor?.ok === true ? { unusualAmount: { factor: factor.amount, firstPayment } } : {}),
      },
      problems: null,
    };
  }
  const { draft, problems } = draftOf();
  /** The form's own problem for a field once a save was tried, else the engine's. */
  function problemOf(name: string): string | null {
    return (tried ? problems?.[name] : undefined) ?? fieldError(error?.fields, name);
  }
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setTried(true);
    if (draft === null) return;
    const result = await askOperator({
      title: t('settings.editor.confirm.title', { currency: currencyLabel(currency) }),
      description: t('settings.editor.confirm.description'),
      confirmLabel: t('settings.editor.save'),
      run: (as) => useSettingsStore.getState().setPolicy(draft, as),
    });
    if (result === null) return;
    if (result.ok) onDone(result.value);
    else setError(result.error);
  }
  return (
    <form className="editor stack" onSubmit={(event) => void submit(event)} aria-labelledby="policy-editor-title" data-testid="@settings/policy-editor">
      <h3 id="policy-editor-title">{t('settings.editor.title', { currency: currencyLabel(currency) })}</h3>
      <fieldset className="fieldset">
        <legend>{t('settings.editor.thresholds')}</legend>
        {thresholds.length === 0 ? <p className="muted small">{t('settings.editor.noThresholds')}</p> : null}
        {thresholds.map((row, index) => (
          <div key={index} className="inline-form">
            <Field
              label={t('settings.editor.above', { number: index + 1 })}
              hint={<AmountReading text={row.above} unit={assetOf(currency)} testId={`@settings/policy-above-${index}-reading`} />}
              error={amountRefusal(row.above) ?? problemOf(`thresholds.${index}.above`)}
              testId={`@settings/policy-above-${index}`}
            >
              {(control) => (
                <input {...control} className="input input--mono" inputMode="decimal" value={row.above} onChange={(event) => setThresholds(thresholds.map((item, i) => (i === index ? { ...item, above: event.target.value } : item)))} required />
              )}
            </Field>
            <Field label={t('settings.editor.approvals')} error={problemOf(`thresholds.${index}.approvals`)}>
              {(control) => (
                <Select
                  control={control}
                  value={row.approvals}
                  options={APPROVAL_COUNTS}
                  label={(count) => count}
                  onChange={(approvals) => setThresholds(thresholds.map((item, i) => (i === index ? { ...item, approvals } : item)))}
                />
              )}
            </Field>
            <Field
              label={t('settings.editor.groups', { number: index + 1 })}
              hint={
                groupNames.length === 0
                  ? t('settings.editor.groupsHintNone', { syntax: tierGroupsSyntaxFor() })
                  : t('settings.editor.groupsHint', { syntax: tierGroupsSyntaxFor(), groups: groupNames.join(', ') })
              }
              error={problemOf(`thresholds.${index}.groups`)}
              testId={`@settings/policy-groups-${index}`}
            >
              {(control) => (
                <input
                  {...control}
                  className="input input--mono"
                  value={row.groups}
                  spellCheck={false}
                  onChange={(event) => setThresholds(thresholds.map((item, i) => (i === index ? { ...item, groups: event.target.value } : item)))}
                  data-testid={`@settings/policy-groups-${index}`}
                />
              )}
            </Field>
            <div className="inline-form__submit">
              <button type="button" className="button button--small" onClick={() => setThresholds(thresholds.filter((_, i) => i !== index))}>
                {t('settings.editor.removeThreshold', { number: index + 1 })}
              </button>
            </div>
          </div>
        ))}
        <button type="button" className="button button--small" disabled={thresholds.length >= 10} onClick={() => setThresholds([...thresholds, { above: '0', approvals: '1', groups: '' }])}>
          {t('settings.editor.addThreshold')}
        </button>
      </fieldset>
      <Field label={t('settings.editor.dailyLimit')} hint={<AmountReading text={dailyLimit} unit={assetOf(currency)} testId="@settings/policy-daily-limit-reading" />} error={amountRefusal(dailyLimit) ?? problemOf('dailyLimit')} testId="@settings/policy-daily-limit">
        {(control) => <input {...control} className="input input--mono" inputMode="decimal" value={dailyLimit} onChange={(event) => setDailyLimit(event.target.value)} data-testid="@settings/policy-daily-limit" />}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={financial} onChange={(event) => setFinancial(event.target.checked)} data-testid="@settings/policy-financial" />
        {t('settings.editor.financial')}
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={onlyFromBook} onChange={(event) => setOnlyFromBook(event.target.checked)} data-testid="@settings/policy-only-from-book" />
        {t('settings.editor.onlyFromBook')}
      </label>
      <Field
        label={t('settings.editor.wait')}
        hint={t('settings.editor.waitHint')}
        error={problemOf('newDestinationWaitHours')}
        testId="@settings/policy-wait"
      >
        {(control) => (
          <input {...control} className="input input--mono" inputMode="numeric" value={waitHours} onChange={(event) => setWaitHours(event.target.value)} data-testid="@settings/policy-wait" />
        )}
      </Field>
      <Field
        label={t('settings.editor.validHours')}
        hint={t('settings.editor.validHoursHint')}
        error={problemOf('approvalValidHours')}
        testId="@settings/policy-valid-hours"
      >
        {(control) => (
          <input {...control} className="input input--mono" inputMode="numeric" value={validHours} onChange={(event) => setValidHours(event.target.value)} data-testid="@settings/policy-valid-hours" />
        )}
      </Field>
      <Field
        label={t('settings.editor.unusual')}
        hint={t('settings.editor.unusualHint')}
        error={amountRefusal(unusualFactor) ?? problemOf('unusualAmount.factor') ?? fieldError(error?.fields, 'unusualAmount')}
        testId="@settings/policy-unusual-factor"
      >
        {(control) => (
          <input {...control} className="input input--mono" inputMode="decimal" value={unusualFactor} onChange={(event) => setUnusualFactor(event.target.value)} data-testid="@settings/policy-unusual-factor" />
        )}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={firstPayment} disabled={unusualFactor.trim() === ''} onChange={(event) => setFirstPayment(event.target.checked)} data-testid="@settings/policy-first-payment" />
        {t('settings.editor.firstPayment')}
      </label>
      {policy === undefined || (policy.windows.length === 0 && policy.destinationCaps.length === 0) ? null : (
        <p className="field__hint" data-testid="@settings/policy-velocity">
          {tRich('settings.editor.velocityKept', { windows: policy.windows.length, caps: policy.destinationCaps.length, code: (chunks) => <code>{chunks}</code> })}
        </p>
      )}
      <PlatformWithdrawalSettings />
      <PolicyPreview draft={draft} />
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" className="button" onClick={() => onDone(null)}>
          {t('settings.cancel')}
        </button>
        <button type="submit" className="button button--primary" data-testid="@settings/policy-save">
          {t('settings.editor.save')}
        </button>
      </div>
    </form>
  );
}

/** How long the form rests before the preview asks the engine again. */
const PREVIEW_DELAY_MS = 300;

/**
 * Before a change is proposed: what it would change for the requests now waiting for approval or sending (policies/preview,
 * from their signed intents). Asked again a moment after the form stops changing; an older answer never replaces a newer one.
 */
function PolicyPreview({ draft }: { readonly draft: PolicyDraft | null }): React.JSX.Element | null {
  const [preview, setPreview] = useState<PolicyPreviewView | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const key = draft === null ? null : JSON.stringify(draft);
  useEffect(() => {
    if (draft === null) return undefined;
    let current = true;
    const timer = window.setTimeout(() => {
      void useSettingsStore
        .getState()
        .previewPolicy(draft)
        .then((result) => {
          if (!current) return;
          setPreview(result.ok ? result.value : null);
          setError(result.ok ? null : result.error);
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
    // The draft is a new object on every render; its text (key) says whether it changed.
  }, [key]);
  if (draft === null) {
    // An older preview would describe another draft: say why there is none instead.
    return (
      <p className="muted small" data-testid="@settings/policy-preview-summary">
        {t('settings.preview.notPreviewedForm')}
      </p>
    );
  }
  if (error !== null) return <ErrorNotice error={error} />;
  if (preview === null) return null;
  const changed = preview.waiting.filter((line) => line.changed);
  return (
    <section className="stack" aria-labelledby="policy-preview-title" data-testid="@settings/policy-preview">
      <h4 id="policy-preview-title">{t('settings.preview.title')}</h4>
      {preview.problems.length > 0 ? (
        <p className="muted small" data-testid="@settings/policy-preview-summary">
          {t('settings.preview.notPreviewed', { problems: preview.problems.join('; ') })}
        </p>
      ) : (
        <p className="muted small" data-testid="@settings/policy-preview-summary">
          {preview.waiting.length === 0
            ? t('settings.preview.nothingWaits')
            : t('settings.preview.summary', { waiting: preview.waiting.length, changed: changed.length })}
        </p>
      )}
      {changed.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@settings/policy-preview-table">
            <thead>
              <tr>
                <th scope="col">{t('settings.preview.column.request')}</th>
                <th scope="col">{t('settings.preview.column.amount')}</th>
                <th scope="col">{t('settings.preview.column.to')}</th>
                <th scope="col">{t('settings.preview.column.approvals')}</th>
                <th scope="col">{t('settings.preview.column.heldBy')}</th>
              </tr>
            </thead>
            <tbody>
              {changed.map((line) => (
                <tr key={line.id} data-testid={`@settings/policy-preview-${line.id}`}>
                  <td>
                    #{line.id} <span className="muted small mono">{line.fingerprint ?? ''}</span>
                  </td>
                  <td>
                    <Amount value={line.amount} currency={preview.currency} />
                  </td>
                  <td className="mono small">{line.toAddress}</td>
                  <td>
                    {t('settings.preview.approvals', { now: line.now.requiredApprovals, after: line.draft.requiredApprovals, given: line.countedApprovals })}
                  </td>
                  <td>{line.draft.holds.length === 0 ? t('settings.preview.heldByNothing') : line.draft.holds.join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** What the platform allows this merchant (merchantInfo): the desk refuses a policy whose orders it would refuse. */
function PlatformWithdrawalSettings(): React.JSX.Element | null {
  const merchant = useMerchantStore((state) => state.merchant);
  useEffect(() => {
    void useMerchantStore.getState().load();
  }, []);
  if (merchant === null) return null;
  return (
    <p className="field__hint" data-testid="@settings/platform-withdrawal-settings">
      {tRich('settings.platform.allows', {
        types: merchant.withdrawTypes.length === 0 ? t('settings.platform.noType') : merchant.withdrawTypes.reduce((first, next) => t('settings.platform.typeAnd', { first, next })),
        bound: merchant.auditorMessengerBound === false ? 'no' : 'yes',
        when: <DateTime at={merchant.fetchedAt} />,
      })}
    </p>
  );
}

function CallbackListener(): React.JSX.Element {
  const state = useSettingsStore((store) => store.callbacks);
  const [host, setHost] = useState('127.0.0.1');
  const [port, setPort] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  async function start(event: FormEvent): Promise<void> {
    event.preventDefault();
    const parsed = port.trim() === '' ? null : Number.parseInt(port, 10);
    const result = await useSettingsStore.getState().startCallbacks(host, parsed !== null && Number.isNaN(parsed) ? null : parsed);
    setError(result.ok ? null : result.error);
  }
  async function stop(): Promise<void> {
    const result = await useSettingsStore.getState().stopCallbacks();
    setError(result.ok ? null : result.error);
  }
  return (
    <section className="card" aria-labelledby="callbacks-title" data-testid="@settings/callbacks">
      <h2 id="callbacks-title">{t('settings.callbacks.title')}</h2>
      <p className="muted small">{t('settings.callbacks.intro')}</p>
      {state === null ? null : (
        <dl className="facts">
          <dt>{t('settings.callbacks.state')}</dt>
          <dd data-testid="@settings/callbacks-state">{state.running ? t('settings.callbacks.listening') : t('settings.callbacks.stopped')}</dd>
          <dt>{t('settings.callbacks.url')}</dt>
          <dd className="mono">{state.url ?? '—'}</dd>
          <dt>{t('settings.callbacks.receivedRefused')}</dt>
          <dd>
            {state.received} / {state.refused}
          </dd>
          {state.lastError === null ? null : (
            <>
              <dt>{t('settings.callbacks.lastProblem')}</dt>
              <dd>{state.lastError}</dd>
            </>
          )}
        </dl>
      )}
      {state?.running === true ? (
        <button type="button" className="button" onClick={() => void stop()} data-testid="@settings/callbacks-stop">
          {t('settings.callbacks.stop')}
        </button>
      ) : (
        <form className="inline-form" onSubmit={(event) => void start(event)}>
          <Field label={t('settings.callbacks.host')} error={fieldError(error?.fields, 'host')}>
            {(control) => <input {...control} className="input input--mono" value={host} onChange={(event) => setHost(event.target.value)} />}
          </Field>
          <Field label={t('settings.callbacks.port')} error={fieldError(error?.fields, 'port')}>
            {(control) => <input {...control} className="input input--mono" inputMode="numeric" value={port} onChange={(event) => setPort(event.target.value)} />}
          </Field>
          <div className="inline-form__submit">
            <button type="submit" className="button button--primary" data-testid="@settings/callbacks-start">
              {t('settings.callbacks.start')}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={error} />
      <RefusedCallbacks refused={state?.refused ?? 0} />
    </section>
  );
}

/** Each refusal code's words (contract/callback-refusals CALLBACK_REFUSAL_WORDS, which the CLI prints), in the window's language. */
const CALLBACK_REFUSAL_MEANINGS: Readonly<Record<CallbackRefusalCode, MessageId>> = {
  rateLimited: 'settings.refusals.reason.rateLimited',
  bodyTooLarge: 'settings.refusals.reason.bodyTooLarge',
  bodyUnreadable: 'settings.refusals.reason.bodyUnreadable',
  malformedEnvelope: 'settings.refusals.reason.malformedEnvelope',
  missingHeaders: 'settings.refusals.reason.missingHeaders',
  wrongAppId: 'settings.refusals.reason.wrongAppId',
  badTimestamp: 'settings.refusals.reason.badTimestamp',
  staleTimestamp: 'settings.refusals.reason.staleTimestamp',
  badNonce: 'settings.refusals.reason.badNonce',
  badSignature: 'settings.refusals.reason.badSignature',
  replayedNonce: 'settings.refusals.reason.replayedNonce',
  decryptFailed: 'settings.refusals.reason.decryptFailed',
  schemaMismatch: 'settings.refusals.reason.schemaMismatch',
  notSuccess: 'settings.refusals.reason.notSuccess',
  other: 'settings.refusals.reason.other',
};

function refusalWords(code: CallbackRefusalCode): string {
  // The envelope's field names are the protocol's, and braces would be ICU syntax: a value.
  return t(CALLBACK_REFUSAL_MEANINGS[code], { envelope: '{code, data, message}' });
}

/** Refused callbacks listed before "Show all": the newest explain a problem being debugged now. */
const REFUSALS_SHOWN_FIRST = 10;

/** The listener's recent refusals (callbacks/refusals), fetched again whenever its refused count moves. Reasons arrive escaped (api.ts). */
function RefusedCallbacks({ refused }: { readonly refused: number }): React.JSX.Element | null {
  const [view, setView] = useState<CallbackRefusalsView | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [showAll, setShowAll] = useState(false);
  useEffect(() => {
    let current = true;
    void call('callbacks/refusals', {}).then((result) => {
      if (!current) return;
      setView(result.ok ? result.value : null);
      setError(result.ok ? null : result.error);
    });
    return () => {
      current = false;
    };
  }, [refused]);
  if (view === null) return <ErrorNotice error={error} />;
  const shown = showAll ? view.refusals : view.refusals.slice(0, REFUSALS_SHOWN_FIRST);
  return (
    <section aria-labelledby="callback-refusals-title" data-testid="@settings/callback-refusals">
      <h3 id="callback-refusals-title">{t('settings.refusals.title')}</h3>
      <p className="muted small">{t('settings.refusals.intro', { kept: view.kept })}</p>
      {view.total === 0 ? (
        <p className="muted" data-testid="@settings/callback-refusals-empty">
          {t('settings.refusals.none')}
        </p>
      ) : (
        <>
          <p data-testid="@settings/callback-refusals-counts">
            {view.counts.map((entry) => `${refusalWords(entry.code)}: ${entry.count}`).join('; ')}
          </p>
          <ol className="stack refusal-list">
            {shown.map((refusal, index) => (
              <li key={`${refusal.at}-${index}`} data-testid="@settings/callback-refusal" data-code={refusal.code}>
                <div>
                  {tRich('settings.refusals.line', {
                    when: <DateTime at={refusal.at} />,
                    source: <span className="mono">{refusal.source}</span>,
                    reason: refusalWords(refusal.code),
                    status: refusal.status,
                  })}
                </div>
                <div className="muted small" data-testid="@settings/callback-refusal-reason">
                  {refusal.reason}
                </div>
              </li>
            ))}
          </ol>
          {shown.length < view.refusals.length ? (
            <button type="button" className="button" onClick={() => setShowAll(true)} data-testid="@settings/callback-refusals-all">
              {t('settings.refusals.showAll', { count: view.refusals.length })}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

function Diagnostics(): React.JSX.Element {
  const exporting = useFileAction(() => call('desktop/exportDiagnostics', {}));
  return (
    <section className="card" aria-labelledby="diagnostics-title">
      <h2 id="diagnostics-title">{t('settings.diagnostics.title')}</h2>
      <p className="muted small">{t('settings.diagnostics.intro', { log: `${LOG_FOLDER_NAME}/${LOG_FILE_NAME}` })}</p>
      <button type="button" className="button" disabled={exporting.busy} onClick={() => void exporting.run()} data-testid="@settings/export-diagnostics">
        {t('settings.diagnostics.export')}
      </button>
      <ErrorNotice error={exporting.error} testId="@settings/diagnostics-error" />
      <div role="status" data-testid="@settings/diagnostics-result">
        {exporting.done === null ? null : (
          <p>
            {tRich('settings.diagnostics.saved', {
              // The count as the English has always shown it (no grouping).
              bytes: String(exporting.done.value.bytes),
              file: exporting.done.fileName,
              code: (chunks) => <code>{chunks}</code>,
            })}
          </p>
        )}
      </div>
    </section>
  );
}

const LOCK_CHOICES = [0, 60, 300, 600, 900, 1800, 3600, 14400];

function LockTimeout(): React.JSX.Element {
  const current = useSessionStore((state) => state.session?.lockTimeoutSeconds ?? null);
  const [seconds, setSeconds] = useState<string>('');
  const [error, setError] = useState<ContractError | null>(null);
  const [saved, setSaved] = useState(false);
  const value = seconds === '' ? String(current ?? 900) : seconds;
  const choices = current === null || LOCK_CHOICES.includes(current) ? LOCK_CHOICES : [...LOCK_CHOICES, current].sort((a, b) => a - b);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const chosen = Number.parseInt(value, 10);
    const result = await askOperator({
      title: t('settings.lock.confirm.title'),
      description: chosen === 0 ? t('settings.lock.confirm.never') : t('settings.lock.confirm.after', { duration: formatDuration(chosen) }),
      confirmLabel: t('settings.save'),
      run: (as) => useSettingsStore.getState().setLockTimeout(chosen, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setSaved(result.ok);
  }
  return (
    <section className="card" aria-labelledby="lock-timeout-title">
      <h2 id="lock-timeout-title">{t('settings.lock.title')}</h2>
      <p className="muted small">
        {current === null
          ? t('settings.lock.currentlyUnknown')
          : current === 0
            ? t('settings.lock.currentlyNever')
            : t('settings.lock.currentlyAfter', { duration: formatDuration(current) })}
      </p>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label={t('settings.lock.after')} error={fieldError(error?.fields, 'seconds')}>
          {(control) => (
            <select
              {...control}
              className="input"
              value={value}
              onChange={(event) => {
                setSeconds(event.target.value);
                setSaved(false);
              }}
              data-testid="@settings/lock-timeout"
            >
              {choices.map((choice) => (
                <option key={choice} value={String(choice)}>
                  {choice === 0 ? t('settings.lock.never') : formatDuration(choice)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button" data-testid="@settings/lock-timeout-save">
            {t('settings.save')}
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      <p role="status" className="small">
        {saved ? t('settings.saved') : null}
      </p>
      <button type="button" className="button" onClick={() => void useSessionStore.getState().lock()} data-testid="@settings/lock-now">
        {t('settings.lock.now')}
      </button>
    </section>
  );
}

const MINUTE_MS = 60_000;

/** Minutes typed in the form, per watched status. */
type MinutesDraft = Readonly<Record<WatchedOrderStatus, string>>;

function minutesOf(thresholds: StuckThresholdsView['thresholds']): MinutesDraft {
  return Object.fromEntries(WATCHED_ORDER_STATUSES.map((status) => [status, String(Math.round(thresholds[status] / MINUTE_MS))])) as unknown as MinutesDraft;
}

/** What each watched status means (contract/stuck-orders WATCHED_STATUS_TEXT, which the CLI prints), in the window's language. */
const WATCHED_STATUS_MEANINGS: Readonly<Record<WatchedOrderStatus, MessageId>> = {
  pendingConfirm: 'settings.stuck.status.pendingConfirm',
  pendingTransfer: 'settings.stuck.status.pendingTransfer',
  pendingFinancialConfirmation: 'settings.stuck.status.pendingFinancialConfirmation',
  pendingCallback: 'settings.stuck.status.pendingCallback',
};

/** How long a withdrawal may stay in each pending status before the watchdog flags it stuck (desk-wide, an admin). */
function StuckThresholds(): React.JSX.Element {
  const [view, setView] = useState<StuckThresholdsView | null>(null);
  const [draft, setDraft] = useState<MinutesDraft | null>(null);
  const [problems, setProblems] = useState<Partial<Record<WatchedOrderStatus, string>>>({});
  const [error, setError] = useState<ContractError | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    void call('settings/stuckThresholds', {}).then((result) => {
      if (result.ok) {
        setView(result.value);
        setDraft(minutesOf(result.value.thresholds));
      } else setError(result.error);
    });
  }, []);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (view === null || draft === null) return;
    const found: Partial<Record<WatchedOrderStatus, string>> = {};
    const changes: Partial<Record<WatchedOrderStatus, number>> = {};
    const [min, max] = [view.range.min / MINUTE_MS, view.range.max / MINUTE_MS];
    for (const status of WATCHED_ORDER_STATUSES) {
      const typed = draft[status].trim();
      const minutes = /^[0-9]{1,6}$/.test(typed) ? Number.parseInt(typed, 10) : Number.NaN;
      if (!(minutes >= min && minutes <= max)) found[status] = t('settings.stuck.problem', { min: String(min), max: String(max) });
      else if (minutes * MINUTE_MS !== view.thresholds[status]) changes[status] = minutes * MINUTE_MS;
    }
    setProblems(found);
    setSaved(false);
    if (Object.keys(found).length > 0 || Object.keys(changes).length === 0) return;
    const result = await askOperator({
      title: t('settings.stuck.confirm.title'),
      description: t('settings.stuck.confirm.description', {
        changes: Object.entries(changes)
          .map(([status, ms]) => t('settings.stuck.confirm.change', { status, duration: formatDuration(ms / 1000) }))
          .join(', '),
      }),
      hint: t('settings.stuck.confirm.hint'),
      confirmLabel: t('settings.save'),
      run: (as) => call('settings/setStuckThresholds', { thresholds: changes, as }),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) {
      setView(result.value);
      setDraft(minutesOf(result.value.thresholds));
      setSaved(true);
    }
  }
  return (
    <section className="card" aria-labelledby="stuck-thresholds-title" data-testid="@settings/stuck">
      <h2 id="stuck-thresholds-title">{t('settings.stuck.title')}</h2>
      <p className="muted small">{t('settings.stuck.intro')}</p>
      <ErrorNotice error={error} />
      {view === null || draft === null ? null : (
        <form className="stack" onSubmit={(event) => void submit(event)}>
          {WATCHED_ORDER_STATUSES.map((status) => (
            <Field
              key={status}
              label={t('settings.stuck.minutes', { status })}
              hint={t('settings.stuck.hint', { meaning: t(WATCHED_STATUS_MEANINGS[status]), duration: formatDuration(view.defaults[status] / 1000) })}
              error={problems[status] ?? fieldError(error?.fields, `thresholds.${status}`)}
              testId={`@settings/stuck-${status}`}
            >
              {(control) => (
                <input
                  {...control}
                  className="input"
                  inputMode="numeric"
                  value={draft[status]}
                  onChange={(event) => {
                    setDraft({ ...draft, [status]: event.target.value });
                    setSaved(false);
                  }}
                  data-testid={`@settings/stuck-${status}`}
                />
              )}
            </Field>
          ))}
          <div>
            <button type="submit" className="button" data-testid="@settings/stuck-save">
              {t('settings.save')}
            </button>
          </div>
        </form>
      )}
      <p role="status" className="small" data-testid="@settings/stuck-status">
        {saved ? t('settings.saved') : null}
      </p>
    </section>
  );
}

/** Every IANA zone this runtime knows, UTC first (Intl lists it under Etc/ or not at all). */
function knownTimeZones(): readonly string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
}

function ReportingTimeZone(): React.JSX.Element {
  const current = useReportingTimeZone();
  const workstation = workstationTimeZone();
  const [typed, setTyped] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const value = typed ?? current;
  const [zones] = useState(knownTimeZones);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    // Checked here before anyone types a passphrase (the engine checks again); letter case is corrected ("europe/berlin").
    const chosen = canonicalTimeZone(value);
    if (chosen === null) {
      setProblem(t('settings.timeZone.problem', { text: value.slice(0, 64) }));
      return;
    }
    setProblem(null);
    const result = await askOperator({
      title: t('settings.timeZone.confirm.title'),
      description: t('settings.timeZone.confirm.description', { zone: chosen }),
      confirmLabel: t('settings.save'),
      run: (as) => useSettingsStore.getState().setReportingTimeZone(chosen, as),
    });
    if (result === null) return;
    setSaved(result.ok);
    if (result.ok) setTyped(null);
  }
  return (
    <section className="card" aria-labelledby="time-zone-title" data-testid="@settings/time-zone">
      <h2 id="time-zone-title">{t('settings.timeZone.title')}</h2>
      <p className="muted small">{t('settings.timeZone.intro')}</p>
      <dl className="facts">
        <dt>{t('settings.timeZone.currently')}</dt>
        <dd data-testid="@settings/time-zone-current">{current}</dd>
        <dt>{t('settings.timeZone.now')}</dt>
        <dd>
          <DateTime at={Date.now()} testId="@settings/time-zone-now" />
        </dd>
        <dt>{t('settings.timeZone.workstation')}</dt>
        <dd>{workstation}</dd>
      </dl>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label={t('settings.timeZone.field')} error={problem} testId="@settings/time-zone">
          {(control) => (
            <input
              {...control}
              className="input input--mono"
              list="time-zone-names"
              autoComplete="off"
              spellCheck={false}
              value={value}
              onChange={(event) => {
                setTyped(event.target.value);
                setSaved(false);
                setProblem(null);
              }}
              data-testid="@settings/time-zone-input"
            />
          )}
        </Field>
        <datalist id="time-zone-names">
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <div className="inline-form__submit">
          <button type="submit" className="button" data-testid="@settings/time-zone-save">
            {t('settings.save')}
          </button>
        </div>
      </form>
      {workstation === value ? null : (
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setTyped(workstation);
            setSaved(false);
            setProblem(null);
          }}
          data-testid="@settings/time-zone-workstation"
        >
          {t('settings.timeZone.useWorkstation', { zone: workstation })}
        </button>
      )}
      <p role="status" className="small">
        {saved ? t('settings.saved') : null}
      </p>
    </section>
  );
}

/** Each language by its own name, whatever the window speaks (the catalogue has the same name on both sides). */
const LANGUAGE_NAMES: Readonly<Record<Language, MessageId>> = {
  en: 'settings.language.english',
  de: 'settings.language.german',
};

/**
 * This workstation's language for the window (desktop/preferences, kept by main): the system's, or one chosen. Choosing
 * one re-renders the whole window in it at once (App keys the tree by locale); a refusal puts the old one back.
 */
function WindowLanguage(): React.JSX.Element {
  const choice = useLanguageStore((state) => state.choice);
  // Kept in the store: a refused choice re-renders the whole tree twice (this section with it) before it answers.
  const error = useSettingsStore((state) => state.languageError);
  // The language "System" speaks here: the desk's language for the system's locale (a fr-FR system reads English).
  const systemLanguage = localeFor('system', typeof navigator === 'undefined' ? 'en-US' : navigator.language).language;
  return (
    <section className="card" aria-labelledby="language-title" data-testid="@settings/language">
      <h2 id="language-title">{t('settings.language.title')}</h2>
      <p className="muted small">{t('settings.language.intro')}</p>
      <Field label={t('settings.language.label')}>
        {(control) => (
          <select
            {...control}
            className="input"
            value={choice}
            onChange={(event) => {
              const chosen = LANGUAGE_CHOICES.find((option) => option === event.target.value);
              if (chosen !== undefined) void useSettingsStore.getState().chooseLanguage(chosen);
            }}
            data-testid="@settings/language-choice"
          >
            {LANGUAGE_CHOICES.map((option) => (
              <option key={option} value={option} lang={option === 'system' ? undefined : option}>
                {option === 'system' ? t('settings.language.system', { language: t(LANGUAGE_NAMES[systemLanguage]) }) : t(LANGUAGE_NAMES[option])}
              </option>
            ))}
          </select>
        )}
      </Field>
      <ErrorNotice error={error} />
    </section>
  );
}

const ORDER_FINAL_LABELS: Readonly<Record<OrderFinalScope, MessageId>> = {
  off: 'settings.notifications.final.off',
  mine: 'settings.notifications.final.mine',
  all: 'settings.notifications.final.all',
};

/** Whose notifications the section shows: the operator signed in here, else one the person picks. */
function Notifications(): React.JSX.Element {
  const signedIn = useSessionStore((state) => state.session?.operator ?? null);
  const roster = useOperatorsStore((state) => state.roster);
  const operators = (roster?.operators ?? []).filter((operator) => operator.status === 'active').map((operator) => operator.name);
  const [picked, setPicked] = useState<string | null>(null);
  const who = signedIn ?? picked ?? operators[0] ?? null;
  const view = useNotificationsStore((state) => state.view);
  const error = useNotificationsStore((state) => state.error);
  useEffect(() => {
    if (who !== null) void useNotificationsStore.getState().load(who);
  }, [who]);
  return (
    <section className="card" aria-labelledby="notifications-title" data-testid="@settings/notifications">
      <h2 id="notifications-title">{t('settings.notifications.title')}</h2>
      <p className="muted small">{t('settings.notifications.intro')}</p>
      {signedIn === null && operators.length > 0 ? (
        <Field label={t('settings.notifications.operator')}>
          {(control) => (
            <Select control={control} value={who ?? ''} options={operators} label={(name) => name} onChange={(name) => setPicked(name)} testId="@settings/notifications-operator" />
          )}
        </Field>
      ) : null}
      {who === null ? <p className="muted">{t('settings.notifications.noOperators')}</p> : null}
      <ErrorNotice error={error} />
      {view === null || view.operator.toLowerCase() !== who?.toLowerCase() ? null : (
        <NotificationsForm key={view.operator} view={view} />
      )}
    </section>
  );
}

function NotificationsForm({ view }: { readonly view: NotificationPreferencesView }): React.JSX.Element {
  const [approvalWaiting, setApprovalWaiting] = useState(view.preferences.approvalWaiting);
  const [orderFinal, setOrderFinal] = useState<OrderFinalScope>(view.preferences.orderFinal);
  const [orderStuck, setOrderStuck] = useState(view.preferences.orderStuck);
  const [connection, setConnection] = useState(view.preferences.connection);
  const [thresholds, setThresholds] = useState<Partial<Record<CurrencySymbol, string>>>(() =>
    Object.fromEntries(Object.entries(view.preferences.depositThresholds).map(([symbol, above]) => [symbol, typedAmountText(above)])),
  );
  const [error, setError] = useState<ContractError | null>(null);
  const [saved, setSaved] = useState(false);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const depositThresholds: Partial<Record<CurrencySymbol, string>> = {};
    for (const symbol of WITHDRAWAL_CURRENCIES) {
      const text = thresholds[symbol] ?? '';
      if (text.trim() === '') continue;
      // A refused amount is shown under its field already: nothing is saved until every one reads.
      const read = readTypedAmount(text);
      if (!read.ok) return;
      depositThresholds[symbol] = read.amount;
    }
    const preferences: NotificationPreferences = { approvalWaiting, orderFinal, orderStuck, connection, depositThresholds };
    const result = await askOperator({
      title: t('settings.notifications.confirm.title', { operator: view.operator }),
      description: t('settings.notifications.confirm.description'),
      confirmLabel: t('settings.notifications.save'),
      run: (as) => useNotificationsStore.getState().save(view.operator, preferences, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setSaved(result.ok);
  }
  /** A change to the form: the "Saved." note no longer holds. */
  function edited<T>(setter: (value: T) => void): (value: T) => void {
    return (value) => {
      setter(value);
      setSaved(false);
    };
  }
  const editApprovals = edited(setApprovalWaiting);
  const editFinal = edited(setOrderFinal);
  const editStuck = edited(setOrderStuck);
  const editConnection = edited(setConnection);
  const editThresholds = edited(setThresholds);
  return (
    <form className="stack" onSubmit={(event) => void submit(event)} aria-label={t('settings.notifications.formLabel', { operator: view.operator })} data-operator={view.operator}>
      <p className="small" data-testid="@settings/notifications-whose">
        {view.isDefault ? t('settings.notifications.defaults', { operator: view.operator }) : t('settings.notifications.ownChoice', { operator: view.operator })}
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={approvalWaiting} onChange={(event) => editApprovals(event.target.checked)} data-testid="@settings/notify-approvals" />
        {t('settings.notifications.approvals')}
      </label>
      <Field label={t('settings.notifications.final')}>
        {(control) => (
          <Select control={control} value={orderFinal} options={ORDER_FINAL_SCOPES} label={(scope) => t(ORDER_FINAL_LABELS[scope])} onChange={editFinal} testId="@settings/notify-final" />
        )}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={orderStuck} onChange={(event) => editStuck(event.target.checked)} data-testid="@settings/notify-stuck" />
        {t('settings.notifications.stuck')}
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={connection} onChange={(event) => editConnection(event.target.checked)} data-testid="@settings/notify-connection" />
        {t('settings.notifications.connection')}
      </label>
      <fieldset className="fieldset">
        <legend>{t('settings.notifications.deposits')}</legend>
        <div className="threshold-grid">
          {WITHDRAWAL_CURRENCIES.map((symbol) => (
            <Field
              key={symbol}
              label={currencyLabel(symbol)}
              hint={<AmountReading text={thresholds[symbol] ?? ''} unit={assetOf(symbol)} testId={`@settings/notify-threshold-${symbol}-reading`} />}
              error={amountRefusal(thresholds[symbol] ?? '') ?? fieldError(error?.fields, `preferences.depositThresholds.${symbol}`)}
              testId={`@settings/notify-threshold-${symbol}`}
            >
              {(control) => (
                <input
                  {...control}
                  className="input input--mono"
                  inputMode="decimal"
                  value={thresholds[symbol] ?? ''}
                  onChange={(event) => editThresholds({ ...thresholds, [symbol]: event.target.value })}
                  data-testid={`@settings/notify-threshold-${symbol}`}
                />
              )}
            </Field>
          ))}
        </div>
      </fieldset>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="submit" className="button button--primary" data-testid="@settings/notifications-save">
          {t('settings.notifications.save')}
        </button>
      </div>
      <p role="status" className="small" data-testid="@settings/notifications-status">
        {saved ? t('settings.saved') : null}
      </p>
    </form>
  );
}

/** This workstation's desktop preferences (kept by the desktop, for whoever uses this computer). */
function Workstation(): React.JSX.Element {
  const keep = useNotificationsStore((state) => state.keepRunningInTray);
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    void useNotificationsStore.getState().loadDesktop();
  }, []);
  return (
    <section className="card" aria-labelledby="workstation-title" data-testid="@settings/workstation">
      <h2 id="workstation-title">{t('settings.workstation.title')}</h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={keep === true}
          disabled={keep === null}
          onChange={(event) => void useNotificationsStore.getState().setKeepRunningInTray(event.target.checked).then((result) => setError(result.ok ? null : result.error))}
          data-testid="@settings/keep-in-tray"
        />
        {t('settings.workstation.keepInTray')}
      </label>
      <p className="muted small">{t('settings.workstation.quitHint')}</p>
      <ErrorNotice error={error} />
    </section>
  );
}
