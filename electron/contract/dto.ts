// Data shapes the contract answers with. Plain JSON: money as decimal strings, times as epoch milliseconds,
// keys only as SHA-256 fingerprints. Nothing here may ever hold a secret, key or token.
import type { AuditWithdrawalContext } from './audit-sentences';
import type { AddressType, Chain, CurrencySymbol } from '../chains';
import type { ClockVerdict } from './clock';
import type { LabelType } from './limits';
import type { ContractErrorCode } from './result';
import type { ConnectionCause, SelfcheckAdvice, SelfcheckOutcome, SyncProgressPhase, SyncResource } from './status-sentences';
import type { StuckFlagView } from './stuck-orders';

export interface ProfileSummary {
  readonly name: string;
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly isDemo: boolean;
  readonly active: boolean;
  /** Where the four credentials live: the OS keychain, or a credentials file (headless, less safe). */
  readonly credentialSource: 'keychain' | 'file' | 'missing';
  readonly platformKeyFingerprint: string | null;
  readonly merchantKeyFingerprint: string | null;
  readonly callbackListener: { readonly host: string; readonly port: number; readonly enabled: boolean };
  /** Its operators' roster is founded: removing it needs one of its admins (on a team desk, a four-eyes proposal first). */
  readonly founded: boolean;
}

export interface GeneratedMerchantKey {
  readonly publicKeyPem: string;
  readonly fingerprint: string;
}

export type SelfcheckStepName = 'token' | 'request' | 'response' | 'echo' | 'clock' | 'version';

export interface SelfcheckStep {
  readonly step: SelfcheckStepName;
  readonly ok: boolean;
  /** What the step found, as a code and its values (the app words it in the window's language). */
  readonly outcome: SelfcheckOutcome;
  /** The outcome in English (contract/status-sentences.ts), as the CLI prints it. */
  readonly detail: string;
}

export interface SelfcheckReport {
  readonly ok: boolean;
  readonly steps: readonly SelfcheckStep[];
  /** Server time minus local time, seconds; null when no answer arrived. */
  readonly clockDriftSeconds: number | null;
  /** The drift judged by clockDriftVerdict (contract/clock.ts); null when no answer arrived. */
  readonly clockVerdict: ClockVerdict | null;
  /** What to do next, e.g. the version 2 switch guidance, or the whitelist explanation: each line as a code and its values. */
  readonly advice: readonly SelfcheckAdvice[];
  /** The advice in English (contract/status-sentences.ts), as the CLI prints it. */
  readonly guidance: readonly string[];
}

export type OfflineReason = 'network' | 'notWhitelisted' | 'clockDrift' | 'credentials' | 'service';

export interface ConnectionState {
  readonly online: boolean;
  readonly reason: OfflineReason | null;
  /** Why, as a code and the values of its sentence (the app words it in the window's language); absent when online. */
  readonly cause?: ConnectionCause;
  /** The cause in English (contract/status-sentences.ts), as the CLI prints it; null when online. */
  readonly message: string | null;
  /** When the engine last saw the service unreachable for this reason (ms), null when online. */
  readonly since: number | null;
  readonly lastContactAt: number | null;
}


export interface SyncResourceState {
  readonly resource: SyncResource;
  readonly lastAttemptAt: number | null;
  readonly lastSuccessAt: number | null;
  /** The last failure's message (English, maybe the network's words), or null after a success. */
  readonly lastError: string | null;
  /** The contract's code for that failure, so a window can say what kind of problem it is; null when not known. */
  readonly lastErrorCode: ContractErrorCode | null;
}

export interface SyncProgress {
  readonly resource: SyncResource;
  readonly done: number;
  readonly total: number | null;
  /** The step the sync is at, with its counts (the app words it in the window's language). */
  readonly phase?: SyncProgressPhase;
  /** The phase in English (contract/status-sentences.ts), as the CLI prints it. */
  readonly message: string;
}

export interface SyncStatus {
  readonly connection: ConnectionState;
  readonly resources: readonly SyncResourceState[];
  readonly running: boolean;
  readonly progress: SyncProgress | null;
  /** Whether the desk holds the service's whole deposit history, or how far the walk that will complete it got. */
  readonly depositHistory: DepositHistoryView;
}

/**
 * The deposit history's completeness. getDeposits gives no total, so what is left of an unfinished walk is known only
 * as where it resumes; the desk shows what has been walked.
 */
export interface DepositHistoryView {
  /** A walk reached the end of the service's list (or the part already complete) and none is left unfinished. */
  readonly complete: boolean;
  /** When the history was last made complete (ms); null when never (a new profile, or the mark was withdrawn). */
  readonly completeAt: number | null;
  /** The walk under way or left unfinished (interrupted); the next sync resumes it at `nextPage`. */
  readonly walk: DepositWalkView | null;
  /** Deposits this desk holds for the profile. */
  readonly depositsHeld: number;
}

export interface DepositWalkView {
  /** A full walk (every page, `sync --full`), rather than one down to the part already complete. */
  readonly full: boolean;
  readonly startedAt: number;
  /** Pages of 100 read so far, and the records on them. */
  readonly pagesWalked: number;
  readonly recordsWalked: number;
  readonly nextPage: number;
}

/** One deposit named in a verification: its identity and amount, and how the desk learned of it when it holds it. */
export interface DepositRef {
  readonly apiOrder: string;
  readonly txid: string;
  readonly currency: string;
  readonly amount: string;
  /** How the desk learned of it; null when the desk does not hold it. */
  readonly source: RecordSource | null;
}

/** `sync --verify`: the service's whole deposit list compared with the desk's, exactly. */
export interface DepositVerification {
  /** Nothing missing, nothing unlisted, nothing differing. */
  readonly ok: boolean;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly pagesWalked: number;
  /** Distinct deposits the service lists, and deposits the desk held when the check began. */
  readonly listedByService: number;
  readonly heldLocally: number;
  /** Listed by the service, not held by the desk. */
  readonly missingLocally: readonly DepositRef[];
  /** Held by the desk (since before the check began), not listed by the service. */
  readonly notListed: readonly DepositRef[];
  /** Held and listed, but the service's record differs from the one the desk keeps (as first seen). */
  readonly differing: readonly (DepositRef & { readonly fields: readonly string[] })[];
  /**
   * Missing deposits were found, so the "history complete" mark was withdrawn (and any unfinished walk dropped): the
   * next sync walks the whole list.
   */
  readonly completeMarkWithdrawn: boolean;
}

export interface SyncReport {
  readonly currencies: number;
  readonly balances: number;
  readonly depositsSeen: number;
  readonly depositsNew: number;
  readonly withdrawalsChecked: number;
  readonly withdrawalsAdvanced: number;
  readonly connection: ConnectionState;
}

/**
 * Fields of a platform record that the spec does not name: kept as the service sent them (PROTOCOL §8) and shown under
 * "more fields". Values are plain JSON.
 */
export type MoreFields = Readonly<Record<string, unknown>>;

/** The merchant account as merchantInfo last reported it (the connection screen, the withdrawal checks). */
export interface MerchantInfoView {
  readonly merchantId: string;
  /** The platform's name for the merchant (text from the service). */
  readonly merchantName: string;
  readonly apiVersion: number | null;
  /** Withdrawal types the platform allows this merchant, as it names them (normal, financialConfirmation, ...). */
  readonly withdrawTypes: readonly string[];
  /** Whether a messenger is bound to the merchant's auditor: financialConfirmation needs one. Null when not reported. */
  readonly auditorMessengerBound: boolean | null;
  readonly moreFields: MoreFields;
  /** When merchantInfo answered with this (ms). */
  readonly fetchedAt: number;
}

/**
 * A currency of the service's list (getCurrencies), with fees and minimums as decimal strings (§9.3). The list may hold
 * currencies added after this desk was built: they are shown (balances, deposits), but the desk has no address rules
 * for them, so withdrawals in them are refused (`addressRules` false, `note` says so).
 */
export interface CurrencyView {
  readonly symbol: string;
  readonly displayName: string;
  /** The service's own `name` for it (text from the service). */
  readonly serviceName: string;
  /** Decimal places: PROTOCOL §9.2 for the known 13, the service's table for a new one; null when nobody says. */
  readonly decimals: number | null;
  /** True when this desk knows the currency's chain and address rules, so it can withdraw in it. */
  readonly addressRules: boolean;
  readonly note: string | null;
  readonly depositMin: string;
  readonly depositFixedFee: string;
  readonly depositPercentFee: string;
  readonly depositMinFee: string;
  readonly depositMaxFee: string;
  readonly withdrawMin: string;
  readonly withdrawFixedFee: string;
  readonly withdrawPercentFee: string;
  readonly withdrawMinFee: string;
  readonly withdrawMaxFee: string;
  readonly moreFields: MoreFields;
  readonly fetchedAt: number;
}

export interface BalanceView {
  readonly currency: string;
  readonly displayName: string;
  readonly available: string;
  readonly frozen: string;
  readonly observedAt: number;
  /** False for a currency the service added after this desk was built (see CurrencyView). */
  readonly addressRules: boolean;
  readonly note: string | null;
  /** Unknown fields of this currency's entry in the last merchantInfo answer. */
  readonly moreFields: MoreFields;
}

export type RecordSource = 'callback' | 'query';

/** What a deposit row shows of the radar: its sender looks like a book entry (a badge on the row). */
export interface DepositPoisoningMark {
  readonly looksLike: string;
  readonly similarity: string;
  readonly cleared: boolean;
}

export interface DepositView {
  readonly id: number;
  readonly apiOrder: string;
  readonly txid: string;
  readonly address: string;
  readonly addressType: string;
  readonly fromAddress: string;
  readonly amount: string;
  readonly fee: string;
  readonly currency: string;
  readonly userOrder: string;
  readonly source: RecordSource;
  readonly firstSeenAt: number;
  readonly lastSeenAt: number;
  /** Fields of the deposit record the spec does not name, as first received. */
  readonly moreFields: MoreFields;
  /** The poisoning radar: its sender looks like an address-book entry (and is not one), or null. */
  readonly poisoning: DepositPoisoningMark | null;
}

export interface Page<T> {
  readonly rows: readonly T[];
  /** Opaque keyset cursor for the next page, null at the end. */
  readonly nextCursor: string | null;
}

export interface DepositAddressView {
  readonly address: string;
  readonly addressType: AddressType;
  readonly userOrder: string;
  readonly createdAt: number;
  readonly chains: readonly Chain[];
  readonly notes: readonly string[];
}

export interface QrCodeView {
  readonly format: 'png' | 'svg';
  /** PNG as a data: URL, or SVG markup. */
  readonly data: string;
  readonly content: string;
}

export type OperatorRoleName = 'viewer' | 'initiator' | 'approver' | 'admin';

/** An operator as the signed roster has them (never a key or a seal: the key's fingerprint only). */
export interface OperatorView {
  readonly name: string;
  readonly role: OperatorRoleName;
  /** invited: an admin invited them and they have not (or not yet confirmed) chosen their passphrase. */
  readonly status: 'invited' | 'active' | 'disabled';
  /** The fingerprint of their signing key (4 groups of 4), null while invited. */
  readonly keyFingerprint: string | null;
  /** Everyone their decisions may stand for: themselves, plus the admin who enrolled them alone. */
  readonly party: readonly string[];
  readonly founding: boolean;
  readonly enrolledBy: readonly string[];
  /** Wrong-passphrase lockout: no attempt is checked before this time (ms), null when none. */
  readonly lockedUntil: number | null;
  readonly failedAttempts: number;
  /** Their keys at other workstations of a team desk (device keys), each in force since confirmed. */
  readonly devices: readonly DeviceKeyView[];
}

export interface DeviceKeyView {
  readonly workstation: string;
  readonly keyFingerprint: string;
  /** The operator themself (from another workstation) or the admin who confirmed it. */
  readonly confirmedBy: string;
}

/** A device key proposed at a workstation, waiting for the operator's other key or an admin to confirm it. */
export interface PendingDeviceView {
  /** What `operators/confirmDevice` names. */
  readonly id: string;
  readonly operator: string;
  readonly workstation: string;
  readonly keyFingerprint: string;
  readonly at: number;
}

/** A roster or policy change waiting for the invited operator or for a second, independent admin. */
export interface ProposalView {
  /** What confirm and withdraw refer to. */
  readonly id: string;
  readonly kind: 'enrol' | 'rekey' | 'role' | 'disable' | 'policy' | 'book' | 'profile-add' | 'profile-remove' | 'unfreeze' | 'group' | 'governance' | 'radar-clear' | 'payees';
  readonly subject: string;
  /** In words: "invite carol as initiator". */
  readonly summary: string;
  readonly proposer: string;
  readonly at: number;
  readonly needsConfirmation: boolean;
  /** For invitations: the fingerprint of the key the operator accepted with (what the confirmer checks). */
  readonly acceptedKey: string | null;
  readonly state: 'open' | 'applied' | 'withdrawn';
}

/** An approval group of the signed roster (issue 20): operators a policy tier may require approvals from. */
export interface ApprovalGroupView {
  readonly name: string;
  readonly members: readonly string[];
}

/** The approval groups in force, and the group changes waiting for a second admin (operators/confirm). */
export interface ApprovalGroupsView {
  readonly groups: readonly ApprovalGroupView[];
  readonly pending: readonly ProposalView[];
}

/** A group change proposed: in force at once (`applied`) or waiting for a second admin. */
export interface ApprovalGroupChangeView {
  readonly applied: boolean;
  readonly proposal: ProposalView;
  readonly groups: readonly ApprovalGroupView[];
}

/** Whether a profile's sending is frozen (issue 20's emergency freeze), and the lift waiting for a second admin. */
export interface SendingStateView {
  /**
   * `liftAt`: a lift applied and waiting for its time lock or the loosening delay (vetoable until then), else null;
   * `liftBy`: who scheduled that lift (the admin who lifted it, and the one who confirmed it where one did).
   */
  readonly frozen: {
    readonly by: string;
    readonly since: number;
    readonly reason: string;
    readonly liftAt: number | null;
    readonly liftBy: { readonly proposer: string; readonly confirmedBy: string | null } | null;
  } | null;
  /** An admin's proposal to lift the freeze, until a second, independent admin confirms it (operators/confirm). */
  readonly lift: ProposalView | null;
}

/** A loosening change applied and waiting for its delay (issue 20 part 4): any admin may veto it until `effectiveAt`. */
export interface ScheduledChangeView {
  /** The proposal's id: what governance/veto names. */
  readonly id: string;
  readonly kind: ProposalView['kind'];
  readonly subject: string;
  readonly proposer: string;
  readonly confirmedBy: string | null;
  readonly appliedAt: number;
  readonly effectiveAt: number;
  /** What it loosens, in words. */
  readonly loosens: readonly string[];
  /** At the engine's clock: still waiting (any admin may veto it), vetoed (it never takes effect), or in force. */
  readonly state: 'waiting' | 'vetoed' | 'inForce';
  readonly vetoedBy: string | null;
  readonly vetoedAt: number | null;
  /** The vetoing admin's signed reason (null: none given). */
  readonly vetoReason: string | null;
}

/** The desk's governance (issue 20 part 4): the loosening delay, how a freeze is lifted, and the changes waiting. */
export interface GovernanceView {
  readonly looseningDelayHours: number;
  readonly freezeLift: 'four-eyes' | 'time-lock';
  readonly freezeLockHours: number;
  /** The governance proposal in force (null: never set, the defaults). */
  readonly reference: string | null;
  /** Who set the governance in force and when it took effect (null: never set, the defaults). */
  readonly setBy: { readonly proposer: string; readonly confirmedBy: string | null; readonly since: number } | null;
  /** A governance change waiting for a second admin. */
  readonly proposal: ProposalView | null;
  /** Loosening changes applied and not yet in force, soonest first. */
  readonly pending: readonly ScheduledChangeView[];
  /** The latest loosening changes vetoed or now in force (at most 20), the latest first. */
  readonly recent: readonly ScheduledChangeView[];
}

/** A profile addition or removal proposed on a team desk (docs/team.md "Pinned trust roots"). */
export interface ProfileChangeView {
  /** What operator confirm refers to. */
  readonly proposal: string;
  readonly kind: 'profile-add' | 'profile-remove';
  readonly subject: string;
  /** In force already (a desk without a second independent admin: no four-eyes). */
  readonly applied: boolean;
  readonly needsConfirmation: boolean;
  /** What happens next, in words. */
  readonly message: string;
}

export interface RosterView {
  readonly founded: boolean;
  readonly operators: readonly OperatorView[];
  readonly proposals: readonly ProposalView[];
  readonly pendingDevices: readonly PendingDeviceView[];
  /** Whether the desk has two independent admins (four-eyes on roster, policy and admin requests). */
  readonly fourEyes: boolean;
  /** What the desk cannot do, said plainly (a single-admin desk), or how to start (not founded). */
  readonly notice: string | null;
}

/** An invitation's one-time code: shown once to the admin, who hands it to the operator in person. */
export interface InvitationView {
  readonly proposal: string;
  readonly operator: string;
  readonly code: string;
  readonly needsConfirmation: boolean;
  readonly message: string;
}

export interface PolicyChangeView {
  /** True when the policy is in force now; false while it waits for a second admin's confirmation. */
  readonly applied: boolean;
  readonly proposal: ProposalView;
  readonly policy: PolicyView;
}

export interface PolicyView {
  readonly currency: CurrencySymbol;
  readonly thresholds: readonly {
    readonly above: string;
    readonly approvals: number;
    /** Approval groups the tier also needs: alternatives (OR) of groups that must all approve (AND); absent: none. */
    readonly groups?: readonly (readonly { readonly group: string; readonly count: number }[])[];
  }[];
  readonly dailyLimit: string | null;
  readonly useFinancialConfirmation: boolean;
  /** "Only addresses from the book" (issue 13). */
  readonly onlyFromBook: boolean;
  /** "A new destination waits N hours"; 0: no wait. */
  readonly newDestinationWaitHours: number;
  /** An approval counts for this many hours, then must be given again; null: approvals never expire. */
  readonly approvalValidHours: number | null;
  /** Rolling velocity windows (issue 20); [] when none. */
  readonly windows: readonly PolicyWindowView[];
  /** Per-destination caps (issue 20); [] when none. */
  readonly destinationCaps: readonly { readonly address: string; readonly maxAmount: string; readonly hours: number }[];
  /** One approval more above factor × the destination's median paid, or (firstPayment) for a first payment (issue 21); null: no such rule. */
  readonly unusualAmount: { readonly factor: string; readonly firstPayment: boolean } | null;
  /** Above this amount pay only addresses whose control is proven (issue 21 item 2); null: off. */
  readonly provenControlAbove: string | null;
}

/** A rolling velocity window of a policy: at most maxAmount and/or maxCount requests in `hours`, per scope. */
export interface PolicyWindowView {
  readonly hours: number;
  readonly scope: 'currency' | 'initiator' | 'destination';
  readonly maxAmount?: string | undefined;
  readonly maxCount?: number | undefined;
}

/** A rule of a withdrawal policy, as the simulator and the holds name it. */
export type PolicyRuleName = 'initiator' | 'freeze' | 'approvals' | 'dailyLimit' | 'onlyFromBook' | 'newDestinationWait' | 'poisoning' | 'windows' | 'approvalExpiry' | 'unusualAmount' | 'provenControl' | 'withdrawType';

/** One rule of the policy judged for one request (policies/test): set or not, and whether it refuses the request now. */
export interface PolicyRuleFinding {
  readonly rule: PolicyRuleName;
  /** Whether the policy sets this rule (rules that are off are listed too, so the answer shows the whole policy). */
  readonly active: boolean;
  /** Whether it refuses the request now (at request; a freeze holds it at send). */
  readonly refuses: boolean;
  /** In words: what the rule says and what it means for this request. */
  readonly text: string;
}

/** The policy simulator's answer (issue 20, part 6): the request is never made, nothing is signed. */
export interface PolicyTestView {
  readonly currency: CurrencySymbol;
  readonly amount: string;
  readonly toAddress: string;
  readonly initiator: string | null;
  /** The signed policy in force (its reference: the proposal that set it), the default (never set), or the draft given. */
  readonly policy: { readonly source: 'in force' | 'default' | 'draft'; readonly reference: string | null };
  readonly requiredApprovals: number;
  /** No rule refuses it now (it may still be held later, e.g. by a freeze at send). */
  readonly allowed: boolean;
  readonly findings: readonly PolicyRuleFinding[];
}

/** What a request now waiting needs and what holds it, under one policy. */
export interface PolicyStanding {
  readonly requiredApprovals: number;
  /** The rules that would refuse or hold it, in words ([] when none). */
  readonly holds: readonly string[];
}

/** One waiting request under the policy in force and under the draft (policies/preview). */
export interface PolicyPreviewLine {
  readonly id: string;
  readonly fingerprint: string | null;
  readonly amount: string;
  readonly toAddress: string;
  readonly initiator: string | null;
  readonly state: WithdrawalState;
  /** Approvals that count now (from the signed statements). */
  readonly countedApprovals: number;
  readonly now: PolicyStanding;
  readonly draft: PolicyStanding;
  /** The draft changes what it needs or what holds it. */
  readonly changed: boolean;
}

/** What a policy change would do to the requests now waiting for approval or sending, before it is proposed. */
export interface PolicyPreviewView {
  readonly currency: CurrencySymbol;
  /** Problems with the draft itself (it could not be proposed as it is); [] when usable. */
  readonly problems: readonly string[];
  readonly waiting: readonly PolicyPreviewLine[];
}

export interface PreflightIssue {
  readonly field: 'currency' | 'amount' | 'toAddress' | 'withdrawType' | 'balance' | 'dailyLimit' | 'service';
  readonly message: string;
}

export interface LookAlikeWarning {
  readonly knownAddress: string;
  readonly label: string | null;
  /** Character positions where the typed address differs from the known one. */
  readonly differingPositions: readonly number[];
}

export interface WithdrawalPreflight {
  readonly ok: boolean;
  readonly errors: readonly PreflightIssue[];
  readonly warnings: readonly PreflightIssue[];
  readonly fee: string | null;
  readonly amountReceived: string | null;
  readonly totalDebited: string | null;
  readonly minimum: string | null;
  readonly available: string | null;
  readonly balanceAfter: string | null;
  readonly requiredApprovals: number;
  readonly dailyLimitRemaining: string | null;
  /** Whether this desk never paid the address; null when it was not judged (the address fails the chain rules). */
  readonly newDestination: boolean | null;
  readonly lookAlike: readonly LookAlikeWarning[];
  /**
   * What isAddress said: `accepted` or `refused`; `unreachable` when the service could not be asked (the chain rules
   * passed); `notAsked` when the address fails the chain rules (or the currency has none), so nothing was sent.
   */
  readonly serviceAddressCheck: ServiceAddressCheck;
}

/** The service's answer on a destination at preflight (WithdrawalPreflight.serviceAddressCheck). */
export type ServiceAddressCheck = 'accepted' | 'refused' | 'unreachable' | 'notAsked';

export { WITHDRAWAL_STATES, type WithdrawalState } from './withdrawal-lifecycle';
import type { WithdrawalState } from './withdrawal-lifecycle';

export interface ApprovalView {
  readonly operator: string;
  readonly decision: 'approve' | 'reject';
  readonly reason: string | null;
  readonly at: number;
  /** Whether this approval counts toward four-eyes (an independent party, enrolled before the request). */
  readonly counts: boolean;
  /** Why it does not count, when it does not. */
  readonly note: string | null;
  /** It was signed longer ago than the policy's approval validity (issue 20): it must be given again. Absent: false. */
  readonly expired?: boolean;
}

/** What the signed statements say about a request, checked on every read (the state column is only a cache). */
export interface WithdrawalVerification {
  readonly ok: boolean;
  /** Approvals from independent parties that verify. */
  readonly countedApprovals: number;
  readonly requiredApprovals: number;
  /** Why the statements do not support submitting it (empty when they do, or when nothing is asked yet). */
  readonly problems: readonly string[];
}

export interface OrderStatusEvent {
  readonly status: string;
  readonly source: 'create' | 'query' | 'callback';
  readonly observedAt: number;
}

/** The batch payout a request is a line of: it is approved, rejected and cancelled with its batch, never alone. */
export interface BatchLineRef {
  /** The batch's id (payouts/get); null when no batch is stored under the hash the line is signed under (rows altered). */
  readonly id: string | null;
  /**
   * The batch intent's fingerprint (4 groups of 4), derived from the stored intent only when it hashes to the batch the
   * line's decisions are signed under; null when the stored batch no longer matches (its row was altered).
   */
  readonly fingerprint: string | null;
  /** The line's number in the imported file (1 = the first payout after the header); null when its line row is gone. */
  readonly line: number | null;
}

export interface WithdrawalView {
  readonly id: string;
  /** The intent's fingerprint (4 groups of 4): what approvers compare; also in the order's remark. Null for a request made before signed approvals. */
  readonly fingerprint: string | null;
  readonly verification: WithdrawalVerification;
  readonly currency: CurrencySymbol;
  readonly amount: string;
  readonly toAddress: string;
  /** The payee the address belongs to in the signed book now (its name, display text), or null/absent (issue 21). */
  readonly payee?: string | null;
  readonly withdrawType: 'normal' | 'financialConfirmation';
  readonly memo: string | null;
  readonly userOrder: string;
  readonly state: WithdrawalState;
  readonly initiator: string;
  readonly requiredApprovals: number;
  readonly approvals: readonly ApprovalView[];
  /** The operator whose verifying submit statement sent it to the service, and when; null before it was sent. */
  readonly sentBy: { readonly operator: string; readonly at: number } | null;
  readonly orderStatus: string | null;
  /** success | WithdrawRefund | fail once final (spec rule 1: only these decide an outcome). */
  readonly outcome: 'success' | 'WithdrawRefund' | 'fail' | null;
  readonly apiOrder: string | null;
  readonly fee: string | null;
  readonly txid: string | null;
  /**
   * The platform's remark on the order (the record's `message`, e.g. why it was refunded): text from the service, shown
   * escaped and labelled as the platform's. Null before the service reported the order, or when the remark is empty.
   */
  readonly platformMessage: string | null;
  /** The withdrawal order record the service last reported, every field as sent (unknown ones included). */
  readonly platformRecord: Readonly<Record<string, unknown>> | null;
  readonly history: readonly OrderStatusEvent[];
  /** Why the last submission failed, when it did. */
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Set while the order has stayed in a pending status past its threshold (the watchdog), with what to do next. */
  readonly stuck: StuckFlagView | null;
  /** The batch payout this request is a line of, or null for a single withdrawal. */
  readonly batch: BatchLineRef | null;
}

export interface AuditEntryView {
  readonly seq: number;
  readonly at: number;
  readonly profile: string | null;
  /** The signing operator, or null for the desk key. */
  readonly operator: string | null;
  readonly kind: string;
  readonly action: string;
  readonly subject: string | null;
  readonly keyFingerprint: string;
  readonly details: unknown;
  /** The withdrawal request a decision is about, from its signed request statement; null for other rows. */
  readonly withdrawal: AuditWithdrawalContext | null;
  /** The row as one plain sentence (audit-sentences.ts; a face may write it again with its own amount format). */
  readonly sentence: string;
  /** Whether the row's signature and chain link verify (the audit trail's verification). */
  readonly verification: AuditRowVerification;
}

/**
 * A row's standing in the last full verification of the chain: verified (rows before the first bad one), failed (the
 * first bad row, with why), or unchecked (after it: the chain they hang on is broken, so nothing vouches for them).
 */
export type AuditRowVerification =
  | { readonly status: 'verified' }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'unchecked'; readonly reason: string };

/** A row of the team database this workstation refused, named. */
export interface TeamRefusalView {
  readonly at: number;
  readonly source: string;
  readonly rowName: string;
  readonly reason: string;
}

/** This workstation's team mode: what it is connected to and how fresh its copy is. */
export interface TeamStatusView {
  readonly enabled: boolean;
  /** The team database's URL, without its password. */
  readonly database: string | null;
  readonly workstation: string | null;
  readonly connected: boolean;
  /** Since when the connection state holds (epoch ms). */
  readonly since: number;
  readonly reason: string | null;
  readonly verifiedSeq: number;
  readonly verifiedAt: number | null;
  /** Why this workstation stopped trusting the team database, or null. */
  readonly halted: string | null;
  readonly refused: readonly TeamRefusalView[];
  /** Desk events waiting to be published (an outage keeps them here). */
  readonly pendingEvents: number;
  /** The desk's genesis this workstation pinned (docs/team.md "Pinned trust roots"), or null before a pin. */
  readonly genesis: TeamGenesisView | null;
  /** Why this workstation is not enrolled yet (its device key waits for an admin at another workstation), or null. */
  readonly enrolment: string | null;
}

/** A desk's genesis: the fingerprint people compare out of band, the row it is taken at, and what it pins. */
export interface TeamGenesisView {
  /** 4 groups of 4 base32 characters. */
  readonly fingerprint: string;
  readonly seq: number;
  readonly profiles: readonly string[];
  readonly workstations: readonly string[];
}

/** What a workstation about to join sees: the desk's genesis as its verified shared chain gives it. */
export interface TeamPreviewView {
  readonly deskId: string;
  readonly genesis: TeamGenesisView;
}

/** A re-anchor step (team/reanchor): proposed by one admin, done once a second admin confirmed. */
export interface TeamReanchorView {
  readonly step: 'proposed' | 'done';
  readonly proposer: string;
  readonly confirmer: string | null;
  /** The first and last audit row republished (or to be). */
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly team: TeamStatusView;
}

/** Where this desk's key and audit anchor were, and are now (audit/moveAnchor). */
export interface AnchorMoveView {
  readonly from: 'keychain' | 'file';
  readonly to: 'keychain' | 'file';
}

export interface AuditHeadView {
  readonly seq: number;
  readonly hash: string;
  /** The head hash as a readable code (4 groups of 4). */
  readonly fingerprint: string;
}

export type AuditVerification =
  | {
      readonly ok: true;
      readonly rows: number;
      readonly head: AuditHeadView | null;
      /** Unsigned rows from before signed approvals, sealed into the chain by its first row. */
      readonly legacyRows: number;
      /** Whether this workstation's keychain holds an anchor of the head. */
      readonly anchored: boolean;
      readonly checkpoint: 'matched' | null;
    }
  | { readonly ok: false; readonly rows: number; readonly firstBadSeq: number; readonly reason: string; readonly head: AuditHeadView | null };

export interface CheckpointView {
  readonly path: string;
  readonly seq: number;
  readonly fingerprint: string;
}

export interface CallbackListenerState {
  readonly running: boolean;
  readonly url: string | null;
  readonly received: number;
  readonly refused: number;
  readonly lastError: string | null;
}

export interface AddressCheckView {
  readonly valid: boolean;
  readonly reason: string | null;
  readonly chain: Chain;
  /** The service's isAddress answer, null when unreachable. */
  readonly service: boolean | null;
}

export interface TransferCheckView {
  readonly valid: boolean;
  readonly message: string;
  /** True when the answer was the cached one (5 s per-txid cooldown). */
  readonly cached: boolean;
}

/**
 * Operators a demo desk starts with: a demo is for learning, so their passphrases are shown on screen. Two founding
 * admins, and an approver invited by one and confirmed by the other. They exist only in the demo profile.
 */
export const DEMO_OPERATORS = [
  { name: 'demo-admin', role: 'admin', passphrase: 'demo passphrase 1' },
  { name: 'demo-admin-2', role: 'admin', passphrase: 'demo passphrase 3' },
  { name: 'demo-approver', role: 'approver', passphrase: 'demo passphrase 2' },
] as const;

export interface SessionState {
  readonly locked: boolean;
  readonly operator: string | null;
  readonly lockTimeoutSeconds: number;
  /** The IANA zone times are shown and exported in (a desk-wide setting; UTC until an admin chooses one). */
  readonly reportingTimeZone: string;
  readonly profile: string | null;
  readonly isDemo: boolean;
  /** Until when the unlocking operator's session signs labels and notes without asking again (null: each asks). */
  readonly signsLabelsUntil: number | null;
}

/** A label and note on one record (issue 13): hints for people, never inputs to decisions. */
export interface LabelView {
  readonly type: LabelType;
  /** deposit: apiOrder; withdrawal: userOrder; addr: the deposit address; book: `chain:address`. */
  readonly ref: string;
  readonly label: string;
  readonly note: string | null;
  /** Null for address-book labels (the book keeps only the text). */
  readonly updatedAt: number | null;
  readonly updatedBy: string | null;
}

/** One address of the withdrawal address book: seen by the desk, and whether signed statements put it in the book. */
export interface AddressBookEntryView {
  readonly chain: string;
  readonly address: string;
  readonly label: string | null;
  readonly note: string | null;
  /** In the book by signed statements (an addition applied, confirmed by an independent operator where needed). */
  readonly approved: boolean;
  readonly addedBy: string | null;
  readonly approvedBy: string | null;
  /** When the signed addition took effect, or null. */
  readonly approvedAt: number | null;
  /**
   * An addition confirmed and waiting for the loosening delay (issue 20 part 4), from the signed roster: not in the book
   * yet, and any admin may veto it (governance/veto names `change`) until `takesEffectAt`. Null otherwise.
   */
  readonly scheduled: { readonly change: string; readonly takesEffectAt: number; readonly addedBy: string; readonly approvedBy: string | null } | null;
  readonly firstSeenAt: number;
  readonly useCount: number;
  readonly firstUsedAt: number | null;
  readonly lastUsedAt: number | null;
}

/** An address-book addition waiting for an independent operator's approval. */
export interface AddressBookPendingView {
  readonly proposal: string;
  readonly chain: string;
  readonly address: string;
  readonly proposer: string;
  readonly at: number;
}

/** One address of a payee (issue 21): in the book by signed statements, or waiting for the loosening delay. */
export interface PayeeAddressView {
  readonly chain: string;
  readonly address: string;
  /** In force now; false while a confirmed addition waits for the loosening delay. */
  readonly approved: boolean;
  readonly addedBy: string;
  readonly approvedBy: string | null;
  readonly since: number;
}

/** A payee: a counterparty with a name (unique per profile in any letter case), a note and its addresses on any chains. */
export interface PayeeView {
  readonly id: string;
  readonly name: string;
  readonly note: string;
  readonly addedBy: string;
  readonly approvedBy: string | null;
  readonly since: number;
  /** Its addresses in the book (an unbooked address has left it; a payee with none stays, to add addresses to). */
  readonly addresses: readonly PayeeAddressView[];
}

/** A payees batch, or an address for a payee, waiting for an independent operator's approval (addressbook/approve). */
export interface PayeePendingView {
  readonly proposal: string;
  readonly proposer: string;
  readonly at: number;
  readonly payees: readonly { readonly id: string; readonly name: string; readonly note: string; readonly addresses: readonly { readonly chain: string; readonly address: string }[] }[];
}

export interface PayeesView {
  readonly payees: readonly PayeeView[];
  readonly pending: readonly PayeePendingView[];
  /** Why additions take effect at once on this desk (no two independent admins), or null when they wait for approval. */
  readonly notice: string | null;
}

export interface AddressBookView {
  readonly entries: readonly AddressBookEntryView[];
  readonly pending: readonly AddressBookPendingView[];
  /** Why additions take effect at once on this desk (no two independent admins), or null when they wait for approval. */
  readonly notice: string | null;
}
