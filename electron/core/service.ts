// TreasuryService: the contract implemented by the engine. Every handler answers a Result and never throws; a
// locked desk answers `locked` to everything but session/*. No answer ever carries a key, secret or token.
import { CHAIN_INFO, chainsFor, depositNotesFor, isAddressType, validateAddress, WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../chains';
import {
  CLOCK_DRIFT_WARN_SECONDS,
  clockDriftVerdict,
  DEMO_OPERATORS,
  ok,
  type AuditEntryView,
  type DepositAddressView,
  type DepositView,
  type MethodName,
  type PolicyView,
  type ProfileSummary,
  type Result,
  type SelfcheckReport,
  type SelfcheckStep,
  type TreasuryHandlers,
} from '../contract';
import { depositRecordSchema, NotWhitelistedError, ProtocolError, ResponseVerificationError, ServiceError, TIMESTAMP_WINDOW_SECONDS, unknownFieldsOf } from '../protocol';
import { qrPngDataUrl, qrSvg } from './addresses/qr';
import type { CallbackListener } from './callbacks/listener';
import type { DeskContext } from './context';
import { DeskError, toContractError } from './errors';
import { csvInstant, csvLine } from './export/csv';
import { balanceViews, checkCurrencyFilter, currencyViews, merchantInfoView } from './merchant/records';
import { writeFailureReason, writeFileAtomically as writeFileWhole } from './files/atomic-write';
import { preferencesView, setOwnPreferences } from './notifications/preferences';
import { approvalsWaitingFor } from './notifications/recipients';
import { applicationLogFacts, diagnosticsText } from './diagnostics';
import { appLog, registerRequestSecrets, secretRedactor } from './log';
import { actingAs, signAction, type OperatorCredentials } from './operators/acting';
import {
  acceptInvitation,
  changePassphrase,
  changeRole,
  confirmProposal,
  disableOperator,
  foundDesk,
  inviteOperator,
  proposalView,
  proposePolicy,
  rekeyOperator,
  rosterView,
  withdrawProposal,
} from './operators/enrolment';
import { parseCheckpoint, toSignable } from './audit/trail';
import { readFileSync } from 'node:fs';
import { addProfile, generateProfileKey, importProfileFile, listProfileSummaries, removeProfile, selectProfile } from './profiles';
import type { SessionLock } from './session';
import {
  exportAudit,
  getProfile,
  listAudit,
  listDepositAddresses,
  listDeposits,
  listProfiles,
  listWithdrawalRequests,
  saveDepositAddress,
  saveMerchantInfo,
  setSetting,
  SETTING_KEYS,
  userVersion,
  type AuditRow,
  type Deposit,
  type DepositAddress,
  type DepositQuery,
} from './store';
import { diagnoseFailure } from './sync/connection';
import type { SyncService } from './sync/sync';
import { parseStatement } from './statements/statement';
import { platformWithdrawalSettings, withdrawTypeRefusal } from './withdrawals/platform-rules';
import { policyProblems } from './withdrawals/policy';
import { runReconciliation } from './reconcile/run';
import { recordStuckOrders, setStuckThresholds, stuckOrders, stuckThresholds, stuckThresholdsView } from './withdrawals/watchdog';
import {
  approveWithdrawal,
  cancelWithdrawal,
  getWithdrawalView,
  newUserOrder,
  policyFor,
  preflight,
  rejectWithdrawal,
  requestWithdrawal,
  submitWithdrawal,
  withdrawalView,
} from './withdrawals/desk';

/** Starts the embedded sandbox for demo mode; provided by the face (main, CLI, harness), never imported by core. */
export type DemoSandboxStarter = () => Promise<{
  readonly credentials: { baseUrl: string; merchantId: string; secret: string; platformPublicKey: string; merchantPrivateKey: string };
  close(): Promise<void>;
}>;

export interface ServiceParts {
  readonly context: DeskContext;
  readonly sync: SyncService;
  readonly session: SessionLock;
  readonly callbacks: CallbackListener;
  readonly startDemoSandbox?: DemoSandboxStarter | undefined;
  /** Called with the demo sandbox so the engine can stop it at close. */
  readonly adoptDemoSandbox: (sandbox: { close(): Promise<void> }) => void;
  /** The application's version, for diagnostics. */
  readonly appVersion: string;
}

const DEFAULT_PAGE = 50;
const EXPORT_PAGE = 1000;
/**
 * Methods a locked desk still answers besides session/*: an invited operator completes their invitation at the desk
 * (the one-time code and their own new passphrase prove who they are), without anyone unlocking it for them; the
 * desktop's tray and badge keep counting the approvals waiting for the workstation's operator (a number, nothing
 * more); and diagnostics, which must work when the desk cannot be unlocked (they hold no secret, and the log they
 * include is readable in the data folder by this user anyway).
 */
const ALLOWED_WHILE_LOCKED: ReadonlySet<MethodName> = new Set(['operators/accept', 'notifications/waiting', 'diagnostics/export']);
/**
 * What counts as a person's activity for the idle lock: session/activity (the face reports keyboard and pointer
 * input) and any call carrying an operator's passphrase (`as`, an unlock, an acceptance), which only a person types.
 * Every other call may be a background refresh (an event, a timer) and never postpones the lock.
 */
function isPersonsInput(request: unknown): boolean {
  if (request === null || typeof request !== 'object') return false;
  const fields = request as { readonly as?: unknown; readonly passphrase?: unknown };
  return fields.as !== undefined || fields.passphrase !== undefined;
}

function auditEntryView(row: AuditRow): AuditEntryView {
  const statement = parseStatement(row.statement);
  const body = statement?.body ?? {};
  const details = statement?.kind === 'system' || statement?.kind === 'action' ? (body['details'] ?? {}) : body;
  return { seq: row.seq, at: row.at, profile: row.profile, operator: row.operator, kind: row.kind, action: row.action, subject: row.subject === '' ? null : row.subject, keyFingerprint: row.keyId, details };
}

function depositView(deposit: Deposit): DepositView {
  return {
    id: deposit.id,
    apiOrder: deposit.apiOrder,
    txid: deposit.txid,
    address: deposit.address,
    addressType: deposit.addressType,
    fromAddress: deposit.fromAddress,
    amount: deposit.amount,
    fee: deposit.fee,
    currency: deposit.currency,
    userOrder: deposit.userOrder,
    source: deposit.source,
    firstSeenAt: deposit.firstSeenAt,
    lastSeenAt: deposit.lastSeenAt,
    moreFields: unknownFieldsOf(depositRecordSchema, deposit.raw),
  };
}

function addressView(address: DepositAddress): DepositAddressView {
  const type = isAddressType(address.addressType) ? address.addressType : 'trx';
  return {
    address: address.address,
    addressType: type,
    userOrder: address.userOrder,
    createdAt: address.createdAt,
    chains: chainsFor(type),
    notes: depositNotesFor(type),
  };
}

/** Writes a file the caller named, whole or not at all (core/files/atomic-write.ts); a failure is bad input naming it. */
function writeFileAtomically(path: string, write: (append: (chunk: string) => void) => void): void {
  try {
    writeFileWhole(path, (append) => write(append));
  } catch (error) {
    throw new DeskError('invalidInput', `could not write ${path}: ${writeFailureReason(error)}`);
  }
}

/**
 * Demo mode: starts the embedded sandbox, stores its credentials as the `demo` profile (marked demo everywhere),
 * selects it, gives an empty desk the demo operators, and syncs the demo history.
 */
export async function startDemo(parts: ServiceParts): Promise<ProfileSummary> {
  const { context, sync, session } = parts;
  if (!parts.startDemoSandbox) throw new DeskError('invalidInput', 'demo mode is not available in this build');
  const sandbox = await parts.startDemoSandbox();
  parts.adoptDemoSandbox(sandbox);
  const summary = await addProfile(context, 'demo', sandbox.credentials, { demo: true, replace: true });
  await selectProfile(context, 'demo');
  if (!context.trail.roster('demo').founded) await seedDemoRoster(context);
  // The demo works offline from what it has; a failed first sync is recorded in the sync state and the log.
  await sync.run({ full: true }).catch((error: unknown) => appLog.warn('demo: the first sync failed', { error }));
  session.changed();
  return summary;
}

/**
 * The demo desk's roster, made the way a real team would: two founding admins, and an approver invited by one and
 * confirmed by the other, so the approver is independent of both and four-eyes works in the demo. Demo operators
 * exist only in the demo profile (operators belong to a profile), so they can never act on a real merchant.
 */
async function seedDemoRoster(context: DeskContext): Promise<void> {
  const [admin, secondAdmin, approver] = DEMO_OPERATORS;
  await foundDesk(context, [
    { operator: admin.name, passphrase: admin.passphrase },
    { operator: secondAdmin.name, passphrase: secondAdmin.passphrase },
  ]);
  const invitation = await inviteOperator(context, approver.name, approver.role, { operator: admin.name, passphrase: admin.passphrase });
  await acceptInvitation(context, { name: approver.name, code: invitation.code, passphrase: approver.passphrase });
  await confirmProposal(context, invitation.proposal, { operator: secondAdmin.name, passphrase: secondAdmin.passphrase });
  context.audit({ profile: 'demo', action: 'demo/operators', details: { operators: DEMO_OPERATORS.map((operator) => operator.name) } });
}

/** Writes a file named by the CLI or the app (issue 12 moves the app's choice to a main-process dialog). */
function readTextFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new DeskError('invalidInput', `could not read the ${what} ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function createHandlers(parts: ServiceParts): TreasuryHandlers {
  const { context, sync, session, callbacks } = parts;

  /** Wraps a handler: lock check, activity, and every failure mapped to the contract's error. */
  function handle<M extends MethodName, T>(method: M, run: (request: Parameters<TreasuryHandlers[M]>[0]) => Promise<T> | T) {
    return async (request: Parameters<TreasuryHandlers[M]>[0]): Promise<Result<T>> => {
      if (session.locked && !method.startsWith('session/') && !ALLOWED_WHILE_LOCKED.has(method)) {
        return { ok: false, error: { code: 'locked', message: 'the desk is locked: an operator must unlock it with their passphrase' } };
      }
      if (isPersonsInput(request)) session.touch();
      // A passphrase, an invitation code or a pasted secret is known to the log's redactor before anything can log it.
      registerRequestSecrets(request);
      try {
        return ok(await run(request));
      } catch (error) {
        const mapped = toContractError(error);
        // A refusal is an answer; anything else is a fault worth a record (house rule 14).
        if (mapped.code === 'internal') appLog.error(`engine: ${method} failed unexpectedly`, { method, error });
        return { ok: false, error: mapped };
      }
    };
  }

  const profileName = (): string => context.activeProfile().name;

  async function runSelfcheck(): Promise<SelfcheckReport> {
    const steps: SelfcheckStep[] = [];
    const guidance: string[] = [];
    let drift: number | null = null;
    const client = await context.merchantClient();
    const failed = (step: SelfcheckStep['step'], error: unknown): SelfcheckReport => {
      const message = error instanceof Error ? error.message : String(error);
      steps.push({ step, ok: false, detail: message });
      if (error instanceof NotWhitelistedError) {
        guidance.push("This workstation's public IP address is not on the merchant's whitelist: ask the platform to add it, then run selfcheck again.");
      } else if (error instanceof ServiceError && error.reason === 'signatureFailed') {
        guidance.push('signatureFailed: check that the merchant public key registered with the platform matches this profile, and that the clock is right.');
      } else if (error instanceof ServiceError && error.reason === 'authFailed') {
        guidance.push('authFailed: the merchant ID or secret is wrong.');
      } else if (error instanceof ResponseVerificationError && error.failure === 'staleTimestamp') {
        // The service's signed time is outside the ±300 s window: every answer is refused, so the clock step never runs.
        guidance.push("Correct this computer's clock (enable automatic time synchronisation): the service's answers carry a time more than 5 minutes away from it and are refused.");
      }
      const diagnosis = diagnoseFailure(error, drift);
      if (diagnosis && context.connection.markOffline(diagnosis)) context.emit({ type: 'connection/changed', connection: context.connection.current });
      return { ok: false, steps, clockDriftSeconds: drift, clockVerdict: drift === null ? null : clockDriftVerdict(drift), guidance };
    };
    try {
      await client.getToken();
      steps.push({ step: 'token', ok: true, detail: 'getToken answered with a verified, decrypted token' });
    } catch (error) {
      return failed('token', error);
    }
    try {
      const outcome = await client.selfcheck({ desk: 'treasury-desk', at: context.now() });
      drift = outcome.clockDriftSeconds;
      context.clockDriftSeconds = drift;
      steps.push({ step: 'request', ok: true, detail: 'the service accepted our token, timestamp, nonce, signature and ciphertext' });
      steps.push({ step: 'response', ok: true, detail: 'the answer passed window, nonce, signature and decryption checks' });
      steps.push({ step: 'echo', ok: outcome.echoMatches, detail: outcome.echoMatches ? 'the payload came back unchanged' : 'the echoed payload differs from what was sent' });
      const verdict = clockDriftVerdict(drift);
      steps.push({
        step: 'clock',
        ok: verdict !== 'fail',
        detail:
          `the service's clock is ${Math.abs(drift)} s ${drift >= 0 ? 'ahead of' : 'behind'} this computer (the limit is ${TIMESTAMP_WINDOW_SECONDS} s` +
          `${verdict === 'warn' ? `; from ${CLOCK_DRIFT_WARN_SECONDS} s on it is worth fixing before requests fail` : ''})`,
      });
      if (verdict === 'fail') guidance.push("Correct this computer's clock (enable automatic time synchronisation): requests fail beyond 5 minutes of drift.");
      if (verdict === 'warn') guidance.push("Check this computer's clock synchronisation: the drift is within the 5-minute window but close to it, and requests fail beyond it.");
    } catch (error) {
      return failed('request', error);
    }
    try {
      const info = await client.merchantInfo();
      saveMerchantInfo(context.db, profileName(), info, context.now());
      steps.push({ step: 'version', ok: true, detail: `the account is on protocol version ${info.apiVersion}: business calls work (merchant "${info.merchantName}", ${info.merchantId})` });
    } catch (error) {
      if (error instanceof ServiceError && error.reason === 'apiVersionNotEnabled') {
        steps.push({ step: 'version', ok: false, detail: 'selfcheck passed, but the account is still on protocol version 1' });
        guidance.push(
          'Version 2 switch: selfcheck has passed; ask the platform staff to switch the account to protocol version 2 (merchants cannot do it), then run selfcheck again: merchantInfo confirms the switch.',
        );
        return { ok: false, steps, clockDriftSeconds: drift, clockVerdict: drift === null ? null : clockDriftVerdict(drift), guidance };
      }
      return failed('version', error);
    }
    if (context.connection.markOnline()) context.emit({ type: 'connection/changed', connection: context.connection.current });
    return { ok: steps.every((step) => step.ok), steps, clockDriftSeconds: drift, clockVerdict: drift === null ? null : clockDriftVerdict(drift), guidance };
  }

  function depositQuery(request: { currency?: string | undefined; from?: number | undefined; to?: number | undefined; search?: string | undefined }, limit: number, after: string | null): DepositQuery {
    return {
      profile: profileName(),
      limit,
      after,
      ...(request.currency !== undefined ? { currency: request.currency } : {}),
      ...(request.from !== undefined ? { from: request.from } : {}),
      ...(request.to !== undefined ? { to: request.to } : {}),
      ...(request.search !== undefined && request.search.trim() !== '' ? { search: request.search.trim() } : {}),
    };
  }

  /**
   * The admin changing a desk-wide setting (lock timeout, reporting time zone): it applies to every profile on this
   * desk, so the demo's operators (published passphrases) may not change it while real profiles exist.
   */
  async function deskSettingsAdmin(as: OperatorCredentials) {
    const operator = await actingAs(context, as, 'manageSettings');
    if (context.activeProfile().demo && listProfiles(context.db).some((profile) => !profile.demo)) {
      throw new DeskError('forbidden', 'demo operators cannot change settings that also apply to the real merchant profiles on this desk: select a real profile and act as one of its admins');
    }
    return operator;
  }

  function policyView(currency: CurrencySymbol): PolicyView {
    const policy = policyFor(context, profileName(), currency);
    return { currency, thresholds: policy.thresholds, dailyLimit: policy.dailyLimit, useFinancialConfirmation: policy.useFinancialConfirmation };
  }

  return {
    'session/state': handle('session/state', () => session.state()),
    'session/unlock': handle('session/unlock', (request) => session.unlock(request)),
    'session/lock': handle('session/lock', () => session.lock()),
    'session/activity': handle('session/activity', () => {
      session.touch();
      return { locked: session.locked };
    }),

    'profiles/list': handle('profiles/list', () => listProfileSummaries(context)),
    'profiles/add': handle('profiles/add', (request) => addProfile(context, request.name, request.credentials)),
    'profiles/importFile': handle('profiles/importFile', async (request) => (await importProfileFile(context, request.name, request.path)).summary),
    'profiles/generateKey': handle('profiles/generateKey', (request) => generateProfileKey(context, request.name)),
    'profiles/select': handle('profiles/select', async (request) => {
      const summary = await selectProfile(context, request.name);
      session.changed();
      return summary;
    }),
    'profiles/remove': handle('profiles/remove', (request) => removeProfile(context, request.name, request.as)),

    'demo/start': handle('demo/start', () => startDemo(parts)),

    'selfcheck/run': handle('selfcheck/run', () => runSelfcheck()),

    'sync/run': handle('sync/run', (request) => sync.run({ full: request.full === true })),
    'sync/status': handle('sync/status', () => sync.status()),
    'sync/verify': handle('sync/verify', () => sync.verifyDeposits()),

    'currencies/list': handle('currencies/list', () => currencyViews(context.db, profileName())),
    'balances/list': handle('balances/list', () => balanceViews(context.db, profileName())),
    'merchant/info': handle('merchant/info', () => ({ merchant: merchantInfoView(context.db, profileName()) })),

    'deposits/list': handle('deposits/list', (request) => {
      checkCurrencyFilter(context.db, profileName(), request.currency);
      const page = listDeposits(context.db, depositQuery(request, request.limit ?? DEFAULT_PAGE, request.cursor ?? null));
      return { rows: page.rows.map(depositView), nextCursor: page.nextCursor };
    }),
    'deposits/exportCsv': handle('deposits/exportCsv', (request) => {
      checkCurrencyFilter(context.db, profileName(), request.currency);
      let rows = 0;
      const timeZone = session.reportingTimeZone();
      writeFileAtomically(request.path, (append) => {
        // Times in the reporting zone with its offset (settings/setReportingTimeZone), so each stays one exact instant.
        append(csvLine(['first_seen', 'currency', 'amount', 'fee', 'txid', 'address', 'address_type', 'from_address', 'api_order', 'user_order', 'source', 'last_seen']));
        let after: string | null = null;
        do {
          const page = listDeposits(context.db, depositQuery(request, EXPORT_PAGE, after));
          for (const deposit of page.rows) {
            append(
              csvLine([
                csvInstant(deposit.firstSeenAt, timeZone),
                deposit.currency,
                deposit.amount,
                deposit.fee,
                deposit.txid,
                deposit.address,
                deposit.addressType,
                deposit.fromAddress,
                deposit.apiOrder,
                deposit.userOrder,
                deposit.source,
                csvInstant(deposit.lastSeenAt, timeZone),
              ]),
            );
            rows += 1;
          }
          after = page.nextCursor;
        } while (after !== null);
      });
      context.audit({ profile: profileName(), action: 'deposits/export', subject: request.path, details: { rows, timeZone } });
      return { rows, path: request.path };
    }),

    'addresses/create': handle('addresses/create', async (request) => {
      const operator = await actingAs(context, request.as, 'createAddress');
      const profile = profileName();
      const userOrder = request.userOrder ?? newUserOrder(context.now());
      const created = await (await context.merchantClient()).createAddress({ userOrder, addressType: request.addressType });
      const saved = saveDepositAddress(context.db, profile, created, context.now());
      if (saved.conflict) {
        signAction(operator, 'addresses/conflict', userOrder, { answered: created.address, stored: saved.address.address });
        throw new DeskError('conflict', `userOrder ${userOrder} is already cached with another address; the cached one is kept. Check with the platform.`);
      }
      if (saved.isNew) signAction(operator, 'addresses/create', userOrder, { address: created.address, addressType: created.addressType });
      return addressView(saved.address);
    }),
    'addresses/list': handle('addresses/list', () => {
      const all: DepositAddressView[] = [];
      let after: string | null = null;
      do {
        const page = listDepositAddresses(context.db, { profile: profileName(), limit: 500, after });
        all.push(...page.rows.map(addressView));
        after = page.nextCursor;
      } while (after !== null);
      return all;
    }),
    'addresses/qr': handle('addresses/qr', async (request) => {
      if (request.address.trim() === '' || request.address !== request.address.trim()) {
        throw new DeskError('invalidInput', 'the address is empty or has spaces at the start or end', { address: 'no surrounding spaces' });
      }
      const data = request.format === 'png' ? await qrPngDataUrl(request.address) : await qrSvg(request.address);
      return { format: request.format, data, content: request.address };
    }),

    'operators/list': handle('operators/list', () => rosterView(context)),
    'operators/found': handle('operators/found', (request) => foundDesk(context, request.admins)),
    'operators/invite': handle('operators/invite', (request) => inviteOperator(context, request.name, request.role, request.as)),
    'operators/accept': handle('operators/accept', (request) => acceptInvitation(context, request)),
    'operators/confirm': handle('operators/confirm', (request) => confirmProposal(context, request.proposal, request.as)),
    'operators/withdrawProposal': handle('operators/withdrawProposal', (request) => withdrawProposal(context, request.proposal, request.as)),
    'operators/setRole': handle('operators/setRole', (request) => changeRole(context, request.name, request.role, request.as)),
    'operators/disable': handle('operators/disable', (request) => disableOperator(context, request.name, request.as)),
    'operators/rekey': handle('operators/rekey', (request) => rekeyOperator(context, request.name, request.as)),
    'operators/changePassphrase': handle('operators/changePassphrase', (request) =>
      changePassphrase(context, { operator: request.operator, passphrase: request.passphrase }, request.newPassphrase),
    ),

    'policies/list': handle('policies/list', () => WITHDRAWAL_CURRENCIES.map(policyView)),
    'policies/set': handle('policies/set', async (request) => {
      const policy = { thresholds: request.thresholds, dailyLimit: request.dailyLimit, useFinancialConfirmation: request.useFinancialConfirmation };
      const problems = policyProblems(policy);
      if (problems.length > 0) throw new DeskError('invalidInput', `the policy is not usable: ${problems.join('; ')}`);
      const refusal = withdrawTypeRefusal(platformWithdrawalSettings(context.db, profileName()), policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal');
      if (refusal) {
        const message = `the platform would refuse every withdrawal under this policy: ${refusal.reason}: ${refusal.remedy}`;
        throw new DeskError('invalidInput', message, { useFinancialConfirmation: message });
      }
      const proposal = await proposePolicy(context, request.currency, toSignable(policy) as never, request.as);
      const applied = proposal.state === 'applied';
      return { applied, proposal: proposalView(proposal), policy: applied ? policyView(request.currency) : { currency: request.currency, ...policy } };
    }),

    'withdrawals/preflight': handle('withdrawals/preflight', (request) => preflight(context, request)),
    'withdrawals/request': handle('withdrawals/request', (request) => requestWithdrawal(context, request)),
    'withdrawals/approve': handle('withdrawals/approve', (request) => approveWithdrawal(context, request.id, request.as)),
    'withdrawals/reject': handle('withdrawals/reject', (request) => rejectWithdrawal(context, request.id, request.reason, request.as)),
    'withdrawals/cancel': handle('withdrawals/cancel', (request) => cancelWithdrawal(context, request.id, request.reason, request.as)),
    'withdrawals/submit': handle('withdrawals/submit', (request) => submitWithdrawal(context, request.id, request.as)),
    'withdrawals/get': handle('withdrawals/get', (request) => getWithdrawalView(context, request.id)),
    'withdrawals/list': handle('withdrawals/list', (request) => {
      if (request.stuck === true) {
        // Whoever finds an order stuck records it (once): the CLI too, where no watchdog runs.
        const stuck = stuckOrders(context, profileName());
        recordStuckOrders(context, profileName(), stuck);
        const roster = context.trail.roster(profileName(), { cached: true });
        return { rows: stuck.map((order) => withdrawalView(context, order.request, roster)), nextCursor: null };
      }
      const page = listWithdrawalRequests(context.db, {
        profile: profileName(),
        limit: request.limit ?? DEFAULT_PAGE,
        after: request.cursor ?? null,
        ...(request.state ? { state: request.state } : {}),
      });
      const roster = context.trail.roster(profileName(), { cached: true });
      return { rows: page.rows.map((row) => withdrawalView(context, row, roster)), nextCursor: page.nextCursor };
    }),

    'reconcile/run': handle('reconcile/run', (request) => {
      checkCurrencyFilter(context.db, profileName(), request.currency);
      return runReconciliation(context, request);
    }),

    'audit/list': handle('audit/list', (request) => {
      const page = listAudit(context.db, { limit: request.limit ?? DEFAULT_PAGE, after: request.cursor ?? null });
      return { rows: page.rows.map(auditEntryView), nextCursor: page.nextCursor };
    }),
    'audit/verify': handle('audit/verify', async (request) => {
      let against;
      if (request.against !== undefined) {
        try {
          against = parseCheckpoint(readTextFile(request.against, 'checkpoint'));
        } catch (error) {
          if (error instanceof DeskError) throw error;
          throw new DeskError('invalidInput', `${request.against}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return context.trail.verify(against ? { against } : {});
    }),
    'audit/head': handle('audit/head', () => ({ head: context.trail.head() })),
    'audit/checkpoint': handle('audit/checkpoint', (request) => {
      const checkpoint = context.trail.checkpoint();
      const head = context.trail.head();
      if (!checkpoint || !head) throw new DeskError('conflict', 'the audit log is empty: there is nothing to checkpoint yet');
      writeFileAtomically(request.path, (append) => append(`${JSON.stringify(checkpoint, null, 2)}\n`));
      context.audit({ action: 'audit/checkpoint', subject: String(head.seq), details: { fingerprint: head.fingerprint } });
      return { path: request.path, seq: head.seq, fingerprint: head.fingerprint };
    }),
    'audit/export': handle('audit/export', (request) => {
      const rows = exportAudit(context.db);
      writeFileAtomically(request.path, (append) => {
        for (const row of rows) {
          append(`${JSON.stringify({ seq: row.seq, statement: row.statement, signature: row.signature, hash: row.hash })}\n`);
        }
      });
      return { rows: rows.length, path: request.path };
    }),

    'callbacks/state': handle('callbacks/state', () => callbacks.state()),
    'callbacks/start': handle('callbacks/start', (request) => callbacks.start(request)),
    'callbacks/stop': handle('callbacks/stop', () => callbacks.stop()),

    'tools/checkAddress': handle('tools/checkAddress', async (request) => {
      const check = validateAddress(request.chain, request.address);
      let service: boolean | null = null;
      if (check.valid) {
        try {
          service = (await context.publicClient().isAddress(request.address, CHAIN_INFO[request.chain].nativeSymbol)).valid;
        } catch (error) {
          if (!(error instanceof ProtocolError) && !(error instanceof DeskError)) throw error;
        }
      }
      return { valid: check.valid, reason: check.valid ? null : check.reason, chain: request.chain, service };
    }),
    'tools/checkTransfer': handle('tools/checkTransfer', (request) => context.publicClient().checkTransfer(request.txid, request.currency)),

    'notifications/preferences': handle('notifications/preferences', (request) => preferencesView(context, request.operator)),
    'notifications/setPreferences': handle('notifications/setPreferences', (request) => setOwnPreferences(context, request.preferences, request.as)),
    'notifications/waiting': handle('notifications/waiting', (request) => ({ operator: request.operator, approvals: approvalsWaitingFor(context, request.operator) })),
    'diagnostics/export': handle('diagnostics/export', (request) => {
      const active = context.activeProfileName();
      const text = diagnosticsText(
        {
          appVersion: parts.appVersion,
          face: appLog.face ?? 'unknown',
          desk: {
            schemaVersion: userVersion(context.db),
            profiles: listProfiles(context.db).length,
            activeProfileIsDemo: active === undefined ? null : (getProfile(context.db, active)?.demo ?? null),
            locked: session.locked,
            clockDriftSeconds: context.clockDriftSeconds,
          },
          connection: context.connection.current,
          sync: sync.status(),
          log: applicationLogFacts(),
          now: new Date(context.now()),
        },
        secretRedactor,
      );
      writeFileAtomically(request.path, (append) => append(text));
      appLog.info('diagnostics: exported', { bytes: Buffer.byteLength(text, 'utf8') });
      return { path: request.path, bytes: Buffer.byteLength(text, 'utf8') };
    }),

    'settings/setLockTimeout': handle('settings/setLockTimeout', async (request) => {
      const operator = await deskSettingsAdmin(request.as);
      context.trail.transaction(() => {
        setSetting(context.db, SETTING_KEYS.lockTimeoutSeconds, request.seconds, context.now());
        signAction(operator, 'settings/lockTimeout', '', { seconds: request.seconds });
      });
      return session.changed();
    }),
    'settings/stuckThresholds': handle('settings/stuckThresholds', () => stuckThresholdsView(context)),
    'settings/setStuckThresholds': handle('settings/setStuckThresholds', async (request) => {
      const operator = await deskSettingsAdmin(request.as);
      const before = stuckThresholds(context);
      context.trail.transaction(() => {
        const after = setStuckThresholds(context, request.thresholds);
        signAction(operator, 'settings/stuckThresholds', '', { changed: request.thresholds, before, after });
      });
      // Every order's stuck flag may have changed.
      context.emit({ type: 'withdrawals/changed', id: null });
      return stuckThresholdsView(context);
    }),
    'settings/setReportingTimeZone': handle('settings/setReportingTimeZone', async (request) => {
      const operator = await deskSettingsAdmin(request.as);
      const before = session.reportingTimeZone();
      context.trail.transaction(() => {
        setSetting(context.db, SETTING_KEYS.reportingTimeZone, request.timeZone, context.now());
        signAction(operator, 'settings/reportingTimeZone', '', { timeZone: request.timeZone, before });
      });
      return session.changed();
    }),
  };
}
