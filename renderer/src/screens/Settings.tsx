// Settings: per-currency withdrawal policies (policies/list, policies/set: applied at once, or waiting for another
// admin's confirmation), the callback listener (callbacks/state, start, stop) and its refused callbacks (callbacks/refusals), the idle lock timeout
// (settings/setLockTimeout), the reporting time zone (settings/setReportingTimeZone), when a withdrawal counts as stuck
// (settings/stuckThresholds, settings/setStuckThresholds: an admin, audited), an operator's notifications
// (notifications/preferences, setPreferences: each operator chooses their own, with their passphrase), this
// workstation's "keep running in the tray" (desktop/setPreferences), team mode (TeamDesk.tsx) and the diagnostics file for support
// (desktop/exportDiagnostics), the emergency freeze (SendingFreeze.tsx) and beside it the governance (Governance.tsx: the loosening delay, vetoes). The policy editor shows what the platform allows the merchant (merchant/info); the engine
// refuses a policy whose orders the platform would refuse; it edits the address-book options too ("only from book",
// "a new destination waits N hours"). Amounts (thresholds, the daily limit, deposit notices) are typed in the person's locale and
// read with readTypedAmount, the reading shown under the field. Operators have their own screen.
import { useEffect, useState, type FormEvent } from 'react';
import { WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../../../electron/chains';
import {
  CALLBACK_REFUSAL_WORDS,
  type CallbackRefusalsView,
  LOG_LOCATION,
  ORDER_FINAL_SCOPES,
  WATCHED_ORDER_STATUSES,
  WATCHED_STATUS_TEXT,
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
import { canonicalTimeZone, timeZoneProblem, workstationTimeZone } from '../../../electron/contract/time-zone';
import { parseTierGroupsSpec, tierGroupsSpec, tierGroupsText, TIER_GROUPS_SYNTAX } from '../../../electron/contract/tier-groups';
import { DateTime, useReportingTimeZone } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Select } from '../components/Select';
import { Field, fieldError } from '../components/Field';
import { AmountReading, amountRefusal } from '../components/AmountReading';
import { assetOf, currencyLabel, formatDuration, groupAmount, readTypedAmount, typedAmountText } from '../format';
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
      <h2 id="policies-title">Withdrawal policies</h2>
      <p className="muted small">How many approvals a withdrawal needs above each amount, the daily limit, and whether orders go through financial confirmation.</p>
      <div className="table-wrap">
        <table className="table table--dense" data-testid="@settings/policies">
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Approvals</th>
              <th scope="col">Daily limit</th>
              <th scope="col">Financial confirmation</th>
              <th scope="col">Only from the book</th>
              <th scope="col">New destination waits</th>
              <th scope="col">Approvals expire</th>
              <th scope="col">Unusual amount</th>
              <th scope="col">
                <span className="visually-hidden">Edit</span>
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
                      ? 'default'
                      : policy.thresholds
                          .map((threshold) => `above ${threshold.above}: ${threshold.approvals}${threshold.groups === undefined ? '' : `, from ${tierGroupsText(threshold.groups)}`}`)
                          .join(' · ')}
                  </td>
                  <td>{policy?.dailyLimit === null || policy === undefined ? 'none' : <Amount value={policy.dailyLimit} currency={symbol} />}</td>
                  <td>{policy?.useFinancialConfirmation === true ? 'yes' : 'no'}</td>
                  <td data-testid={`@settings/policy-only-from-book-${symbol}`}>{policy?.onlyFromBook === true ? 'yes' : 'no'}</td>
                  <td data-testid={`@settings/policy-wait-${symbol}`}>{policy === undefined || policy.newDestinationWaitHours === 0 ? 'no' : `${policy.newDestinationWaitHours} h`}</td>
                  <td data-testid={`@settings/policy-valid-hours-${symbol}`}>{policy === undefined || policy.approvalValidHours === null ? 'never' : `after ${policy.approvalValidHours} h`}</td>
                  <td data-testid={`@settings/policy-unusual-${symbol}`}>
                    {policy === undefined || policy.unusualAmount === null ? 'none' : `above ${groupAmount(policy.unusualAmount.factor)} × median${policy.unusualAmount.firstPayment ? ', and first payments' : ''}`}
                  </td>
                  <td>
                    <button type="button" className="button button--small" onClick={() => setEditing(symbol)} aria-label={`Edit the ${currencyLabel(symbol)} policy`}>
                      Edit
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
          <p className="verdict verdict--ok">The {currencyLabel(saved.policy.currency)} policy is in force.</p>
        ) : (
          <p className="verdict verdict--warn">The {currencyLabel(saved.policy.currency)} policy change is waiting for confirmation by another admin; the current policy stays in force until then.</p>
        )}
      </div>
      {waiting.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@settings/policy-pending">
          <p className="notice__title">Waiting for confirmation by another admin</p>
          <ul>
            {waiting.map((proposal) => (
              <li key={proposal.id}>
                {proposal.summary} (proposed by {proposal.proposer} on <DateTime at={proposal.at} />)
              </li>
            ))}
          </ul>
          <p className="notice__detail">An admin independent of the proposer confirms or withdraws it on the Operators screen.</p>
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
    if (newDestinationWaitHours === null) problems['newDestinationWaitHours'] = 'Type whole hours, from 0 (no wait) to 720.';
    const approvalValidHours = validHoursValue(validHours);
    if (approvalValidHours === null) problems['approvalValidHours'] = 'Type whole hours, from 1 to 720, or leave it empty: approvals never expire.';
    const rows = thresholds.map((row, index) => {
      const groups = parseTierGroupsSpec(row.groups);
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
      title: `Change the ${currencyLabel(currency)} policy`,
      description: 'An administrator signs policy changes; the audit log records them. With two independent admins, a second admin confirms the change before it takes effect.',
      confirmLabel: 'Save policy',
      run: (as) => useSettingsStore.getState().setPolicy(draft, as),
    });
    if (result === null) return;
    if (result.ok) onDone(result.value);
    else setError(result.error);
  }
  return (
    <form className="editor stack" onSubmit={(event) => void submit(event)} aria-labelledby="policy-editor-title" data-testid="@settings/policy-editor">
      <h3 id="policy-editor-title">{currencyLabel(currency)} policy</h3>
      <fieldset className="fieldset">
        <legend>Approval thresholds</legend>
        {thresholds.length === 0 ? <p className="muted small">No thresholds: the desk&apos;s default applies.</p> : null}
        {thresholds.map((row, index) => (
          <div key={index} className="inline-form">
            <Field
              label={`Above amount #${index + 1}`}
              hint={<AmountReading text={row.above} unit={assetOf(currency)} testId={`@settings/policy-above-${index}-reading`} />}
              error={amountRefusal(row.above) ?? problemOf(`thresholds.${index}.above`)}
              testId={`@settings/policy-above-${index}`}
            >
              {(control) => (
                <input {...control} className="input input--mono" inputMode="decimal" value={row.above} onChange={(event) => setThresholds(thresholds.map((item, i) => (i === index ? { ...item, above: event.target.value } : item)))} required />
              )}
            </Field>
            <Field label="Approvals" error={problemOf(`thresholds.${index}.approvals`)}>
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
              label={`Approval groups #${index + 1} (empty for none)`}
              hint={`${TIER_GROUPS_SYNTAX}. ${groupNames.length === 0 ? 'This desk has no approval groups yet (Operators).' : `Groups on this desk: ${groupNames.join(', ')}.`}`}
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
                Remove threshold #{index + 1}
              </button>
            </div>
          </div>
        ))}
        <button type="button" className="button button--small" disabled={thresholds.length >= 10} onClick={() => setThresholds([...thresholds, { above: '0', approvals: '1', groups: '' }])}>
          Add a threshold
        </button>
      </fieldset>
      <Field label="Daily limit (empty for none)" hint={<AmountReading text={dailyLimit} unit={assetOf(currency)} testId="@settings/policy-daily-limit-reading" />} error={amountRefusal(dailyLimit) ?? problemOf('dailyLimit')} testId="@settings/policy-daily-limit">
        {(control) => <input {...control} className="input input--mono" inputMode="decimal" value={dailyLimit} onChange={(event) => setDailyLimit(event.target.value)} data-testid="@settings/policy-daily-limit" />}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={financial} onChange={(event) => setFinancial(event.target.checked)} data-testid="@settings/policy-financial" />
        Send orders with financial confirmation (the finance side confirms each one on the platform)
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={onlyFromBook} onChange={(event) => setOnlyFromBook(event.target.checked)} data-testid="@settings/policy-only-from-book" />
        Only addresses from the address book (an addition counts once an independent operator approved it)
      </label>
      <Field
        label="A new destination waits (hours, 0 for no wait)"
        hint="Counted from the address's approved addition to the book; an address not in the book has not started its wait."
        error={problemOf('newDestinationWaitHours')}
        testId="@settings/policy-wait"
      >
        {(control) => (
          <input {...control} className="input input--mono" inputMode="numeric" value={waitHours} onChange={(event) => setWaitHours(event.target.value)} data-testid="@settings/policy-wait" />
        )}
      </Field>
      <Field
        label="Approvals expire after (hours, empty for never)"
        hint="An approval older than this no longer counts: the request must be approved again before it is sent."
        error={problemOf('approvalValidHours')}
        testId="@settings/policy-valid-hours"
      >
        {(control) => (
          <input {...control} className="input input--mono" inputMode="numeric" value={validHours} onChange={(event) => setValidHours(event.target.value)} data-testid="@settings/policy-valid-hours" />
        )}
      </Field>
      <Field
        label="Unusual amount: one approval more above this many times the median paid to the address (empty for no rule)"
        hint="Counted from the desk's verified payments to the address: signed requests that were sent and that the service reported successful."
        error={amountRefusal(unusualFactor) ?? problemOf('unusualAmount.factor') ?? fieldError(error?.fields, 'unusualAmount')}
        testId="@settings/policy-unusual-factor"
      >
        {(control) => (
          <input {...control} className="input input--mono" inputMode="decimal" value={unusualFactor} onChange={(event) => setUnusualFactor(event.target.value)} data-testid="@settings/policy-unusual-factor" />
        )}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={firstPayment} disabled={unusualFactor.trim() === ''} onChange={(event) => setFirstPayment(event.target.checked)} data-testid="@settings/policy-first-payment" />
        With the unusual-amount rule: one approval more for a first payment to an address (never paid before from this desk)
      </label>
      {policy === undefined || (policy.windows.length === 0 && policy.destinationCaps.length === 0) ? null : (
        <p className="field__hint" data-testid="@settings/policy-velocity">
          Kept as they are: {policy.windows.length} rolling window{policy.windows.length === 1 ? '' : 's'} and {policy.destinationCaps.length} destination cap
          {policy.destinationCaps.length === 1 ? '' : 's'} (change them with <code>treasury-desk policy set --window … --destination-cap …</code>).
        </p>
      )}
      <PlatformWithdrawalSettings />
      <PolicyPreview draft={draft} />
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" data-testid="@settings/policy-save">
          Save policy
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
        Not previewed: a field above says what to type first.
      </p>
    );
  }
  if (error !== null) return <ErrorNotice error={error} />;
  if (preview === null) return null;
  const changed = preview.waiting.filter((line) => line.changed);
  return (
    <section className="stack" aria-labelledby="policy-preview-title" data-testid="@settings/policy-preview">
      <h4 id="policy-preview-title">What this change does to the requests now waiting</h4>
      {preview.problems.length > 0 ? (
        <p className="muted small" data-testid="@settings/policy-preview-summary">
          Not previewed: {preview.problems.join('; ')}.
        </p>
      ) : (
        <p className="muted small" data-testid="@settings/policy-preview-summary">
          {preview.waiting.length === 0
            ? 'No request waits for approval or sending.'
            : `${preview.waiting.length} ${preview.waiting.length === 1 ? 'request waits' : 'requests wait'} for approval or sending; this change affects ${changed.length}.`}
        </p>
      )}
      {changed.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@settings/policy-preview-table">
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">Amount</th>
                <th scope="col">To</th>
                <th scope="col">Approvals needed (now → after)</th>
                <th scope="col">Would be held by</th>
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
                    {line.now.requiredApprovals} → {line.draft.requiredApprovals} ({line.countedApprovals} given)
                  </td>
                  <td>{line.draft.holds.length === 0 ? 'nothing' : line.draft.holds.join('; ')}</td>
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
      The platform allows {merchant.withdrawTypes.length === 0 ? 'no withdrawal type' : merchant.withdrawTypes.join(' and ')} for this merchant; a messenger
      is {merchant.auditorMessengerBound === false ? 'not ' : ''}bound to its auditor (financial confirmation needs one). Reported <DateTime at={merchant.fetchedAt} />.
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
      <h2 id="callbacks-title">Callback listener</h2>
      <p className="muted small">
        Optional: receives the service&apos;s signed deposit and withdrawal notices directly. Without it the desk polls. The
        platform must be able to reach the URL.
      </p>
      {state === null ? null : (
        <dl className="facts">
          <dt>State</dt>
          <dd data-testid="@settings/callbacks-state">{state.running ? 'listening' : 'stopped'}</dd>
          <dt>URL</dt>
          <dd className="mono">{state.url ?? '—'}</dd>
          <dt>Received / refused</dt>
          <dd>
            {state.received} / {state.refused}
          </dd>
          {state.lastError === null ? null : (
            <>
              <dt>Last problem</dt>
              <dd>{state.lastError}</dd>
            </>
          )}
        </dl>
      )}
      {state?.running === true ? (
        <button type="button" className="button" onClick={() => void stop()} data-testid="@settings/callbacks-stop">
          Stop listening
        </button>
      ) : (
        <form className="inline-form" onSubmit={(event) => void start(event)}>
          <Field label="Host" error={fieldError(error?.fields, 'host')}>
            {(control) => <input {...control} className="input input--mono" value={host} onChange={(event) => setHost(event.target.value)} />}
          </Field>
          <Field label="Port (0: any free port)" error={fieldError(error?.fields, 'port')}>
            {(control) => <input {...control} className="input input--mono" inputMode="numeric" value={port} onChange={(event) => setPort(event.target.value)} />}
          </Field>
          <div className="inline-form__submit">
            <button type="submit" className="button button--primary" data-testid="@settings/callbacks-start">
              Start listening
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={error} />
      <RefusedCallbacks refused={state?.refused ?? 0} />
    </section>
  );
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
      <h3 id="callback-refusals-title">Refused callbacks</h3>
      <p className="muted small">
        The last {view.kept} callbacks this listener refused, newest first, and why. Kept in this app&apos;s memory only: quitting forgets them (the audit
        log keeps a sample).
      </p>
      {view.total === 0 ? (
        <p className="muted" data-testid="@settings/callback-refusals-empty">
          None refused since the app started.
        </p>
      ) : (
        <>
          <p data-testid="@settings/callback-refusals-counts">
            {view.counts.map((entry) => `${CALLBACK_REFUSAL_WORDS[entry.code]}: ${entry.count}`).join('; ')}
          </p>
          <ol className="stack refusal-list">
            {shown.map((refusal, index) => (
              <li key={`${refusal.at}-${index}`} data-testid="@settings/callback-refusal" data-code={refusal.code}>
                <div>
                  <DateTime at={refusal.at} /> from <span className="mono">{refusal.source}</span>: {CALLBACK_REFUSAL_WORDS[refusal.code]} (answered{' '}
                  {refusal.status})
                </div>
                <div className="muted small" data-testid="@settings/callback-refusal-reason">
                  {refusal.reason}
                </div>
              </li>
            ))}
          </ol>
          {shown.length < view.refusals.length ? (
            <button type="button" className="button" onClick={() => setShowAll(true)} data-testid="@settings/callback-refusals-all">
              Show all {view.refusals.length}
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
      <h2 id="diagnostics-title">Diagnostics</h2>
      <p className="muted small">
        For support: one file with the versions of Treasury Desk and the system, the state of the desk and of sync, and the end of the application log
        ({LOG_LOCATION}). It never contains a secret, passphrase, key or token; check it before you send it.
      </p>
      <button type="button" className="button" disabled={exporting.busy} onClick={() => void exporting.run()} data-testid="@settings/export-diagnostics">
        Export diagnostics…
      </button>
      <ErrorNotice error={exporting.error} testId="@settings/diagnostics-error" />
      <div role="status" data-testid="@settings/diagnostics-result">
        {exporting.done === null ? null : (
          <p>
            Saved diagnostics ({exporting.done.value.bytes} bytes) to <code>{exporting.done.fileName}</code>: send that file to your support contact.
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
      title: 'Change the idle lock',
      description: chosen === 0 ? 'The desk will no longer lock itself when idle.' : `The desk will lock after ${formatDuration(chosen)} without use.`,
      confirmLabel: 'Save',
      run: (as) => useSettingsStore.getState().setLockTimeout(chosen, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setSaved(result.ok);
  }
  return (
    <section className="card" aria-labelledby="lock-timeout-title">
      <h2 id="lock-timeout-title">Idle lock</h2>
      <p className="muted small">Currently: {current === null ? 'unknown' : current === 0 ? 'never locks by itself' : `locks after ${formatDuration(current)} idle`}.</p>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label="Lock after" error={fieldError(error?.fields, 'seconds')}>
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
                  {choice === 0 ? 'never' : formatDuration(choice)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button" data-testid="@settings/lock-timeout-save">
            Save
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      <p role="status" className="small">
        {saved ? 'Saved.' : null}
      </p>
      <button type="button" className="button" onClick={() => void useSessionStore.getState().lock()} data-testid="@settings/lock-now">
        Lock now
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
      if (!(minutes >= min && minutes <= max)) found[status] = `whole minutes from ${min} to ${max} (30 days)`;
      else if (minutes * MINUTE_MS !== view.thresholds[status]) changes[status] = minutes * MINUTE_MS;
    }
    setProblems(found);
    setSaved(false);
    if (Object.keys(found).length > 0 || Object.keys(changes).length === 0) return;
    const result = await askOperator({
      title: 'Change when a withdrawal counts as stuck',
      description: `For everyone on this desk: ${Object.entries(changes)
        .map(([status, ms]) => `${status} after ${formatDuration(ms / 1000)}`)
        .join(', ')}.`,
      hint: 'An admin signs the change with their passphrase; it is recorded in the audit log.',
      confirmLabel: 'Save',
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
      <h2 id="stuck-thresholds-title">Stuck withdrawals</h2>
      <p className="muted small">
        How long an order sent to the service may stay in each pending status before the desk flags it as stuck: on the dashboard, in the order, as a
        notification and in the audit log.
      </p>
      <ErrorNotice error={error} />
      {view === null || draft === null ? null : (
        <form className="stack" onSubmit={(event) => void submit(event)}>
          {WATCHED_ORDER_STATUSES.map((status) => (
            <Field
              key={status}
              label={`${status} (minutes)`}
              hint={`${WATCHED_STATUS_TEXT[status]}; default ${formatDuration(view.defaults[status] / 1000)}`}
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
              Save
            </button>
          </div>
        </form>
      )}
      <p role="status" className="small" data-testid="@settings/stuck-status">
        {saved ? 'Saved.' : null}
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
      setProblem(timeZoneProblem(value));
      return;
    }
    setProblem(null);
    const result = await askOperator({
      title: 'Change the reporting time zone',
      description: `Times on every screen, in the command line and in CSV exports will be shown in ${chosen}, for everyone using this desk.`,
      confirmLabel: 'Save',
      run: (as) => useSettingsStore.getState().setReportingTimeZone(chosen, as),
    });
    if (result === null) return;
    setSaved(result.ok);
    if (result.ok) setTyped(null);
  }
  return (
    <section className="card" aria-labelledby="time-zone-title" data-testid="@settings/time-zone">
      <h2 id="time-zone-title">Reporting time zone</h2>
      <p className="muted small">
        One zone for the whole desk: the screens, the command line and CSV exports show times in it, with the zone named, so a
        report reads the same on every workstation.
      </p>
      <dl className="facts">
        <dt>Currently</dt>
        <dd data-testid="@settings/time-zone-current">{current}</dd>
        <dt>Now</dt>
        <dd>
          <DateTime at={Date.now()} />
        </dd>
        <dt>This workstation</dt>
        <dd>{workstation}</dd>
      </dl>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label="Time zone (IANA name)" error={problem} testId="@settings/time-zone">
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
            Save
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
          Use this workstation&apos;s zone ({workstation})
        </button>
      )}
      <p role="status" className="small">
        {saved ? 'Saved.' : null}
      </p>
    </section>
  );
}

const ORDER_FINAL_LABELS: Readonly<Record<OrderFinalScope, string>> = {
  off: 'none',
  mine: 'those I requested',
  all: 'every withdrawal',
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
      <h2 id="notifications-title">Notifications</h2>
      <p className="muted small">
        What Treasury Desk tells an operator with the system&apos;s notifications, on the workstation where they are signed in. Each operator
        chooses their own; while the desk is locked, notices leave out amounts and names.
      </p>
      {signedIn === null && operators.length > 0 ? (
        <Field label="Operator">
          {(control) => (
            <Select control={control} value={who ?? ''} options={operators} label={(name) => name} onChange={(name) => setPicked(name)} testId="@settings/notifications-operator" />
          )}
        </Field>
      ) : null}
      {who === null ? <p className="muted">The profile has no operators yet.</p> : null}
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
      title: `Save ${view.operator}'s notifications`,
      description: 'Each operator chooses their own notifications: type your passphrase.',
      confirmLabel: 'Save notifications',
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
    <form className="stack" onSubmit={(event) => void submit(event)} aria-label={`${view.operator}'s notifications`} data-operator={view.operator}>
      <p className="small" data-testid="@settings/notifications-whose">
        {view.isDefault ? `${view.operator} has not chosen yet: these are the defaults for their role.` : `${view.operator}'s own choice.`}
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={approvalWaiting} onChange={(event) => editApprovals(event.target.checked)} data-testid="@settings/notify-approvals" />
        A withdrawal waits for my approval (only when my approval would count)
      </label>
      <Field label="Final outcome of withdrawals (paid out, refunded, failed, rejected)">
        {(control) => (
          <Select control={control} value={orderFinal} options={ORDER_FINAL_SCOPES} label={(scope) => ORDER_FINAL_LABELS[scope]} onChange={editFinal} testId="@settings/notify-final" />
        )}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={orderStuck} onChange={(event) => editStuck(event.target.checked)} data-testid="@settings/notify-stuck" />
        A withdrawal stays pending at the platform longer than usual
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={connection} onChange={(event) => editConnection(event.target.checked)} data-testid="@settings/notify-connection" />
        The desk goes offline, and comes back
      </label>
      <fieldset className="fieldset">
        <legend>Deposits above (empty: no notice for that currency; 0: every deposit)</legend>
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
          Save notifications
        </button>
      </div>
      <p role="status" className="small" data-testid="@settings/notifications-status">
        {saved ? 'Saved.' : null}
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
      <h2 id="workstation-title">This workstation</h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={keep === true}
          disabled={keep === null}
          onChange={(event) => void useNotificationsStore.getState().setKeepRunningInTray(event.target.checked).then((result) => setError(result.ok ? null : result.error))}
          data-testid="@settings/keep-in-tray"
        />
        Keep Treasury Desk running in the tray when its window is closed, so notifications keep coming
      </label>
      <p className="muted small">Quit from the tray icon&apos;s menu. Where the desktop has no tray, closing the window quits anyway.</p>
      <ErrorNotice error={error} />
    </section>
  );
}
