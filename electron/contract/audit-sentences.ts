// One plain sentence per audit row ("alice approved withdrawal ABCD-… of 1,250.5 USDT on TRON to T…"), for the app,
// the CLI and the engine's search alike; pure. Every action the desk records has its own sentence: AUDIT_SENTENCES says
// what it is made of (the values, read once here for every language) and the words (English by default, the app's
// catalogue for another language) say it (test/unit/contract/audit-sentences.test.ts fails when the engine's registry
// names an action without one); an unknown action still shows its name and details; every text that came from people
// or the network is escaped (display-text.ts).
import { CURRENCIES, isCurrencySymbol, type CurrencySymbol } from '../chains';
import { escapeSingleLine } from './display-text';

/** The request a withdrawal decision is about, as its signed `request` statement says (the engine joins it). */
export interface AuditWithdrawalContext {
  /** The intent's fingerprint (4 groups of 4), or null for a payout batch. */
  readonly fingerprint: string | null;
  readonly amount: string | null;
  readonly currency: string | null;
  readonly toAddress: string | null;
  /** A payout batch's line count, or null for a single withdrawal. */
  readonly batchLines: number | null;
}

/** What a sentence is made from: an audit row's columns and its statement's details. */
export interface AuditSentenceInput {
  readonly kind: string;
  readonly action: string;
  /** The merchant profile the row belongs to, or null for desk-wide rows. */
  readonly profile?: string | null;
  /** The signing operator, or null when the desk key signed (a system event). */
  readonly operator: string | null;
  readonly subject: string | null;
  readonly details: unknown;
  readonly withdrawal?: AuditWithdrawalContext | null;
}

/** How a face writes an amount (the app groups it in the person's locale; the CLI and the engine's search keep it plain). */
export interface AuditSentenceFormat {
  amount(amount: string, currency: string): string;
}

/** A currency's name for people: "USDT on TRON", or the symbol (escaped) when this version does not know it. */
export function currencyName(symbol: string, words: Pick<AuditWords, 'currency'> = ENGLISH_AUDIT_WORDS): string {
  return isCurrencySymbol(symbol) ? words.currency(symbol) : escapeSingleLine(symbol);
}

/** The plain amount: the decimal string as stored, then the currency's name. */
export const PLAIN_AMOUNTS: AuditSentenceFormat = { amount: (amount, currency) => `${escapeSingleLine(amount)} ${currencyName(currency)}` };

// ---- reading details defensively: a row is shown whatever its details hold -------------------------------------------

type Details = Readonly<Record<string, unknown>>;

function record(value: unknown): Details {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Details) : {};
}

/** A detail as escaped one-line text, or null when absent. */
function text(details: Details, key: string): string | null {
  const value = details[key];
  if (typeof value === 'string') return escapeSingleLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function count(details: Details, key: string): number | null {
  const value = details[key];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (Array.isArray(value)) return value.length;
  return null;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}

/** Any JSON-like value as escaped one-line text (the fallback and the details column). */
export function auditDetailsText(details: unknown): string {
  if (details === null || details === undefined) return '';
  if (typeof details === 'string') return escapeSingleLine(details);
  try {
    return escapeSingleLine(JSON.stringify(details));
  } catch {
    return escapeSingleLine(String(details));
  }
}

// ---- the words: every template of a sentence in one language (English here; the app's catalogue gives German) ---------
// A template takes values already escaped: text (null for a part the row leaves out), counts as numbers, yes/no as
// booleans. Templates only arrange words; what a value is, and when it is left out, is decided once, in AUDIT_SENTENCES.

type Who = { readonly who: string };
type WhoSubject = { readonly who: string; readonly subject: string };
type WhoRows = { readonly who: string; readonly rows: number };
type WhoRequest = { readonly who: string; readonly request: string };
type WhoWithdrawal = { readonly who: string; readonly withdrawal: string };
type WhoWithdrawalReason = WhoWithdrawal & { readonly reason: string | null };

function withReason(sentence: string, reason: string | null): string {
  return reason === null ? sentence : `${sentence}: ${reason}`;
}

/** The English sentence of every action the desk records, keyed by action. */
export const ENGLISH_AUDIT_SENTENCES = {
  // decisions about a withdrawal or a payout batch (signed by the operator)
  'withdrawals/request': (v: WhoWithdrawal) => `${v.who} requested ${v.withdrawal}`,
  'withdrawals/approve': (v: WhoWithdrawal) => `${v.who} approved ${v.withdrawal}`,
  'withdrawals/reject': (v: WhoWithdrawalReason) => withReason(`${v.who} rejected ${v.withdrawal}`, v.reason),
  'withdrawals/cancel': (v: WhoWithdrawalReason) => withReason(`${v.who} cancelled ${v.withdrawal}`, v.reason),
  'withdrawals/submit': (v: WhoWithdrawal) => `${v.who} sent ${v.withdrawal} to the service`,
  // roster, policy, address book and profile proposals (signed by the operator)
  'operators/found': (v: Who & { readonly profile: string }) => `${v.who} signed the founding of profile ${v.profile}, as one of its first admins`,
  'operators/enrol': (v: WhoSubject & { readonly role: string | null }) => `${v.who} proposed to enrol ${v.subject}${v.role === null ? '' : ` as ${v.role}`}`,
  'operators/rekey': (v: WhoSubject) => `${v.who} proposed a new signing key for ${v.subject}`,
  'operators/role': (v: WhoSubject & { readonly role: string | null }) => `${v.who} proposed to make ${v.subject} ${v.role ?? 'another role'}`,
  'operators/disable': (v: WhoSubject) => `${v.who} proposed to disable ${v.subject}`,
  'operators/accept': (v: Who) => `${v.who} accepted the invitation and set their signing key`,
  'operators/confirm': (v: WhoSubject) => `${v.who} confirmed the proposal about ${v.subject}`,
  'operators/withdraw-proposal': (v: WhoSubject) => `${v.who} withdrew the proposal about ${v.subject}`,
  'operators/passphrase': (v: Who) => `${v.who} changed their passphrase`,
  'operators/device': (v: Who & { readonly workstation: string }) => `${v.who} added their key on workstation ${v.workstation}`,
  'policies/propose': (v: Who & { readonly currency: string }) => `${v.who} proposed a new approval policy for ${v.currency}`,
  'addressbook/propose': (v: WhoSubject & { readonly label: string | null }) => `${v.who} proposed to add ${v.subject} to the address book${v.label === null ? '' : ` as "${v.label}"`}`,
  'addressbook/remove': (v: WhoSubject) => `${v.who} removed ${v.subject} from the address book`,
  'sending/freeze': (v: Who & { readonly reason: string | null }) => `${v.who} froze all sending${v.reason === null ? '' : `: "${v.reason}"`}`,
  'operators/propose-group': (v: WhoSubject) => `${v.who} proposed the members of approval group ${v.subject}`,
  'sending/propose-unfreeze': (v: Who) => `${v.who} proposed lifting the freeze on sending`,
  'governance/propose': (v: Who) => `${v.who} proposed a governance change (loosening delay, freeze lift)`,
  'governance/veto': (v: Who & { readonly change: string }) => `${v.who} vetoed scheduled change ${v.change}`,
  'payees/propose': (v: Who) => `${v.who} proposed new payees and their addresses for the address book`,
  'radar/propose-clear': (v: WhoSubject) => `${v.who} proposed clearing ${v.subject}, flagged by the poisoning radar`,
  'profiles/propose-add': (v: WhoSubject & { readonly merchantId: string | null }) => `${v.who} proposed to add profile ${v.subject}${v.merchantId === null ? '' : ` (merchant ${v.merchantId})`}`,
  'profiles/propose-remove': (v: WhoSubject) => `${v.who} proposed to remove profile ${v.subject}`,
  // operators' audited actions (ledger/kinds/action.ts)
  'team/workstation': (v: Who & { readonly workstation: string }) => `${v.who} enrolled workstation ${v.workstation} in the team`,
  'team/workstationLeft': (v: Who & { readonly workstation: string }) => `${v.who} retired workstation ${v.workstation} from the team`,
  'audit/anchorMoved': (v: Who & { readonly from: string; readonly to: string }) => `${v.who} moved the desk key and audit anchor from the ${v.from} to the ${v.to}`,
  'team/reanchored': (v: Who) => `${v.who} confirmed re-anchoring the team database after a restore`,
  'settings/lockTimeout': (v: Who & { readonly seconds: string }) => `${v.who} set the idle lock to ${v.seconds} seconds`,
  'settings/stuckThresholds': (v: Who) => `${v.who} changed the thresholds after which an order counts as stuck`,
  'settings/reportingTimeZone': (v: Who & { readonly timeZone: string }) => `${v.who} set the reporting time zone to ${v.timeZone}`,
  'addressbook/forget': (v: Who & { readonly address: string }) => `${v.who} forgot the destination ${v.address}`,
  'addressbook/label': (v: WhoSubject & { readonly label: string }) => `${v.who} labelled ${v.subject} "${v.label}"`,
  'addressbook/proveRequest': (v: WhoSubject & { readonly depositAddress: string }) => `${v.who} asked for proof of control of ${v.subject}: a deposit from it to ${v.depositAddress}`,
  'labels/set': (v: WhoSubject & { readonly label: string }) => `${v.who} labelled ${v.subject} "${v.label}"`,
  'labels/import': (v: WhoRows) => `${v.who} imported ${plural(v.rows, 'label')}`,
  'addresses/create': (v: WhoSubject & { readonly address: string }) => `${v.who} created deposit address ${v.address} (order ${v.subject})`,
  'addresses/conflict': (v: WhoSubject & { readonly answered: string; readonly stored: string }) =>
    `${v.who} was answered address ${v.answered} for order ${v.subject}, which already had ${v.stored}`,
  'notifications/preferences': (v: Who) => `${v.who} changed their notification preferences`,
  'webhooks/add': (v: WhoSubject) => `${v.who} added webhook endpoint ${v.subject}`,
  'webhooks/remove': (v: WhoSubject) => `${v.who} removed webhook endpoint ${v.subject}`,
  // desk events, signed by a desk key (ledger/kinds/system.ts)
  'audit/legacySealed': (v: WhoRows) => `${v.who} sealed ${plural(v.rows, 'unsigned entry', 'unsigned entries')} from before signed approvals`,
  'audit/checkpoint': (v: WhoSubject & { readonly fingerprint: string }) => `${v.who} saved a checkpoint of entry #${v.subject} (fingerprint ${v.fingerprint})`,
  'audit/pack': (v: WhoRows) => `${v.who} built an auditor pack of ${plural(v.rows, 'audit entry', 'audit entries')}`,
  'audit/export': (v: WhoRows & { readonly format: string }) => `${v.who} exported ${plural(v.rows, 'audit entry', 'audit entries')} as ${v.format}`,
  'callbacks/refused': (v: Who & { readonly reason: string | null }) => withReason(`${v.who} refused a callback`, v.reason),
  'callbacks/refusedSummary': (v: WhoRows) => `${v.who} refused ${plural(v.rows, 'more callback')} (not recorded one by one)`,
  'callbacks/start': (v: WhoSubject & { readonly beyondLoopback: boolean }) =>
    `${v.who} started listening for callbacks at ${v.subject}${v.beyondLoopback ? ', reachable beyond this computer' : ''}`,
  'callbacks/unknownOrder': (v: WhoSubject) => `${v.who} received a callback for order ${v.subject}, which it never sent`,
  'demo/furnished': (v: Who) => `${v.who} set up the demo's first addresses and withdrawals`,
  'demo/operators': (v: Who) => `${v.who} created the demo operators`,
  'deposits/conflict': (v: WhoSubject & { readonly fields: string }) => `${v.who} saw deposit ${v.subject} reported differently (${v.fields})`,
  'deposits/poisoningSuspected': (v: WhoSubject & { readonly looksLike: string; readonly similarity: string }) =>
    `${v.who} saw a deposit from ${v.subject}, which looks like address-book entry ${v.looksLike} (${v.similarity}): likely address poisoning`,
  'addressbook/controlProven': (v: WhoSubject & { readonly txid: string; readonly amount: string; readonly currency: string }) =>
    `${v.who} saw control of ${v.subject} proven by deposit ${v.txid} (${v.amount} ${v.currency})`,
  'deposits/export': (v: WhoRows) => `${v.who} exported ${plural(v.rows, 'deposit')}`,
  'deposits/verified': (v: Who & { readonly listed: number; readonly agree: boolean; readonly missing: number; readonly notListed: number; readonly differing: number }) =>
    `${v.who} compared the deposit history with the service's ${plural(v.listed, 'deposit')}: ${v.agree ? 'they agree' : `${v.missing} missing here, ${v.notListed} not listed there, ${v.differing} differing`}`,
  'operators/wrongInvitationCode': (v: WhoSubject) => `${v.who} refused a wrong invitation code for ${v.subject}`,
  'operators/wrongPassphrase': (v: WhoSubject & { readonly failures: number }) => `${v.who} refused a wrong passphrase for ${v.subject} (${plural(v.failures, 'failure')})`,
  'payouts/approveRefused': (v: Who & { readonly batch: string }) => `${v.who} refused a decision on payout batch ${v.batch}: its statements do not verify`,
  'profiles/add': (v: WhoSubject & { readonly merchantId: string | null }) => `${v.who} added profile ${v.subject}${v.merchantId === null ? '' : ` (merchant ${v.merchantId})`}`,
  'profiles/generateKey': (v: WhoSubject) => `${v.who} generated a merchant key for profile ${v.subject}`,
  'profiles/remove': (v: WhoSubject & { readonly by: string | null }) => `${v.who} removed profile ${v.subject}${v.by === null ? '' : ` at ${v.by}'s request`}`,
  'session/unlock': (v: WhoSubject) => `${v.who} unlocked the desk for ${v.subject}`,
  'accounting/export': (v: Who & { readonly journals: number; readonly target: string }) => `${v.who} exported ${plural(v.journals, 'journal')} for ${v.target}`,
  'statements/export': (v: Who & { readonly format: string }) => `${v.who} exported a statement as ${v.format}`,
  'team/profile': (v: WhoSubject) => `${v.who} shared profile ${v.subject} with the team`,
  'team/genesis': (v: Who & { readonly fingerprint: string }) => `${v.who} marked the team desk's genesis (fingerprint ${v.fingerprint})`,
  'withdrawals/accepted': (v: { readonly request: string; readonly apiOrder: string | null }) => `The service accepted ${v.request}${v.apiOrder === null ? '' : ` as ${v.apiOrder}`}`,
  'withdrawals/ambiguous': (v: WhoRequest) => `${v.who} could not tell whether the service took ${v.request}; it will ask the service`,
  'withdrawals/approveRefused': (v: WhoRequest) => `${v.who} refused a decision on ${v.request}: its statements do not verify`,
  'withdrawals/export': (v: WhoRows) => `${v.who} exported ${plural(v.rows, 'withdrawal')}`,
  'withdrawals/failureAnswered': (v: { readonly request: string; readonly reason: string | null }) => withReason(`The service refused ${v.request}`, v.reason),
  'withdrawals/mismatch': (v: WhoSubject) => `${v.who} saw order ${v.subject} reported differently from what was sent`,
  'withdrawals/orderMissing': (v: { readonly request: string }) => `The service does not know ${v.request}: it was never sent`,
  'withdrawals/status': (v: { readonly subject: string; readonly status: string }) => `The service reported order ${v.subject} as ${v.status}`,
  'withdrawals/statusAfterFinal': (v: { readonly subject: string; readonly observed: string; readonly current: string }) =>
    `The service reported order ${v.subject} as ${v.observed} after it was final (${v.current})`,
  'withdrawals/stuck': (v: WhoRequest & { readonly status: string }) => `${v.who} flagged ${v.request} as stuck in ${v.status}`,
  'withdrawals/submitFailed': (v: WhoRequest) => `${v.who} found ${v.request} was not taken by the service`,
  'withdrawals/submitRefused': (v: WhoRequest) => `${v.who} refused to send ${v.request}: its statements do not verify`,
  'withdrawals/sendHeld': (v: WhoRequest & { readonly holds: string | null }) => withReason(`${v.who} held ${v.request} instead of sending it`, v.holds),
};

/** Every action that has a sentence of its own. */
export type AuditAction = keyof typeof ENGLISH_AUDIT_SENTENCES;

/** The values the sentence of `action` takes. */
export type AuditSentenceValues<A extends AuditAction> = Parameters<(typeof ENGLISH_AUDIT_SENTENCES)[A]>[0];

/** The words audit sentences are written in, in one language: a template per action and the phrases they share. */
export interface AuditWords {
  readonly sentences: { readonly [A in AuditAction]: (values: AuditSentenceValues<A>) => string };
  /** Who signed a row the desk key signed (a system event): "The desk". */
  readonly theDesk: string;
  /** The profile of a desk-wide row, as it follows "profile": "of the desk". */
  readonly ofTheDesk: string;
  /** A withdrawal the row names nothing of: "a withdrawal". */
  readonly aWithdrawal: string;
  /** "withdrawal ABCD-… of 12.5 USDT on TRON to T…" (amount and destination null when the request does not say). */
  withdrawal(values: { readonly name: string; readonly amount: string | null; readonly to: string | null }): string;
  /** "payout batch 1a2b3c4d… of 3 lines". */
  payoutBatch(values: { readonly name: string; readonly lines: number }): string;
  /** "withdrawal request 4 (order td-1)", or "the withdrawal with order td-1" when the row names no request id. */
  request(values: { readonly id: string | null; readonly order: string }): string;
  /** An action this version does not know: its name, its subject and its details (null when absent). */
  unknown(values: { readonly who: string; readonly action: string; readonly subject: string | null; readonly details: string | null }): string;
  /** A known currency's name: "USDT on TRON", "TRX (TRON)". */
  currency(symbol: CurrencySymbol): string;
}

/** The English words: what the CLI, the engine's search and the app in English show. */
export const ENGLISH_AUDIT_WORDS: AuditWords = {
  sentences: ENGLISH_AUDIT_SENTENCES,
  theDesk: 'The desk',
  ofTheDesk: 'of the desk',
  aWithdrawal: 'a withdrawal',
  withdrawal: (v) => `withdrawal ${v.name}${v.amount === null ? '' : ` of ${v.amount}`}${v.to === null ? '' : ` to ${v.to}`}`,
  payoutBatch: (v) => `payout batch ${v.name} of ${plural(v.lines, 'line')}`,
  request: (v) => (v.id === null ? `the withdrawal with order ${v.order}` : `withdrawal request ${v.id} (order ${v.order})`),
  unknown: (v) => `${v.who} recorded ${v.action}${v.subject === null ? '' : ` about ${v.subject}`}${v.details === null ? '' : `: ${v.details}`}`,
  currency: (symbol) => CURRENCIES[symbol].displayName,
};

// ---- what each sentence is made of, the same in every language --------------------------------------------------------

interface SentenceParts {
  /** Who: the operator's name, or "The desk" for the desk key. */
  readonly who: string;
  readonly subject: string;
  readonly profile: string;
  readonly details: Details;
  readonly withdrawal: AuditWithdrawalContext | null;
  readonly format: AuditSentenceFormat;
  readonly words: AuditWords;
}

/** "withdrawal ABCD-EFGH-IJKL-MNOP of 12.5 USDT on TRON to T…" from the joined request, or the subject's start. */
function withdrawalPhrase(parts: SentenceParts): string {
  const w = parts.withdrawal;
  if (w === null) return parts.subject === '' ? parts.words.aWithdrawal : parts.words.withdrawal({ name: shortId(parts.subject), amount: null, to: null });
  if (w.batchLines !== null) return parts.words.payoutBatch({ name: shortId(parts.subject), lines: w.batchLines });
  const name = w.fingerprint === null ? shortId(parts.subject) : escapeSingleLine(w.fingerprint);
  const amount = w.amount !== null && w.currency !== null ? parts.format.amount(w.amount, w.currency) : null;
  return parts.words.withdrawal({ name, amount, to: w.toAddress === null ? null : escapeSingleLine(w.toAddress) });
}

function shortId(value: string): string {
  const safe = escapeSingleLine(value);
  return safe.length > 12 ? `${safe.slice(0, 8)}…` : safe;
}

function requestRef(parts: SentenceParts): string {
  return parts.words.request({ id: text(parts.details, 'id'), order: parts.subject });
}

/** A reason as a sentence ends with it: null when absent or empty. */
function reasonOf(details: Details, key = 'reason'): string | null {
  const reason = text(details, key);
  return reason === '' ? null : reason;
}

const who = (p: SentenceParts): Who => ({ who: p.who });
const whoSubject = (p: SentenceParts): WhoSubject => ({ who: p.who, subject: p.subject });
const whoRows = (p: SentenceParts, key = 'rows'): WhoRows => ({ who: p.who, rows: count(p.details, key) ?? 0 });
const whoRequest = (p: SentenceParts): WhoRequest => ({ who: p.who, request: requestRef(p) });
const whoWithdrawal = (p: SentenceParts): WhoWithdrawal => ({ who: p.who, withdrawal: withdrawalPhrase(p) });

/**
 * Every action the desk records (the kinds' `domain/verb` from audit-table.ts actionOf, the operator actions of
 * ledger/kinds/action.ts and the desk events of ledger/kinds/system.ts), each with the values its sentence says.
 */
export const AUDIT_SENTENCES: { readonly [A in AuditAction]: (parts: SentenceParts) => AuditSentenceValues<A> } = {
  'withdrawals/request': whoWithdrawal,
  'withdrawals/approve': whoWithdrawal,
  'withdrawals/reject': (p) => ({ ...whoWithdrawal(p), reason: reasonOf(p.details) }),
  'withdrawals/cancel': (p) => ({ ...whoWithdrawal(p), reason: reasonOf(p.details) }),
  'withdrawals/submit': whoWithdrawal,
  'operators/found': (p) => ({ who: p.who, profile: p.profile }),
  'operators/enrol': (p) => ({ ...whoSubject(p), role: text(p.details, 'role') }),
  'operators/rekey': whoSubject,
  'operators/role': (p) => ({ ...whoSubject(p), role: text(p.details, 'role') }),
  'operators/disable': whoSubject,
  'operators/accept': who,
  'operators/confirm': whoSubject,
  'operators/withdraw-proposal': whoSubject,
  'operators/passphrase': who,
  'operators/device': (p) => ({ who: p.who, workstation: text(p.details, 'workstation') ?? p.subject }),
  'policies/propose': (p) => ({ who: p.who, currency: currencyName(p.subject, p.words) }),
  'addressbook/propose': (p) => ({ ...whoSubject(p), label: text(p.details, 'label') }),
  'addressbook/remove': whoSubject,
  'sending/freeze': (p) => ({ who: p.who, reason: text(p.details, 'reason') }),
  'operators/propose-group': whoSubject,
  'sending/propose-unfreeze': who,
  'governance/propose': who,
  'governance/veto': (p) => ({ who: p.who, change: p.subject.slice(0, 12) }),
  'payees/propose': who,
  'radar/propose-clear': whoSubject,
  'profiles/propose-add': (p) => ({ ...whoSubject(p), merchantId: text(p.details, 'merchantId') }),
  'profiles/propose-remove': whoSubject,
  'team/workstation': (p) => ({ who: p.who, workstation: text(p.details, 'workstation') ?? p.subject }),
  'team/workstationLeft': (p) => ({ who: p.who, workstation: text(p.details, 'workstation') ?? p.subject }),
  'audit/anchorMoved': (p) => ({ who: p.who, from: text(p.details, 'from') ?? '?', to: text(p.details, 'to') ?? '?' }),
  'team/reanchored': who,
  'settings/lockTimeout': (p) => ({ who: p.who, seconds: text(p.details, 'seconds') ?? '?' }),
  'settings/stuckThresholds': who,
  'settings/reportingTimeZone': (p) => ({ who: p.who, timeZone: text(p.details, 'timeZone') ?? '?' }),
  'addressbook/forget': (p) => ({ who: p.who, address: text(p.details, 'address') ?? p.subject }),
  'addressbook/label': (p) => ({ ...whoSubject(p), label: text(p.details, 'label') ?? '' }),
  'addressbook/proveRequest': (p) => ({ ...whoSubject(p), depositAddress: text(p.details, 'depositAddress') ?? '?' }),
  'labels/set': (p) => ({ ...whoSubject(p), label: text(p.details, 'label') ?? '' }),
  'labels/import': (p) => whoRows(p),
  'addresses/create': (p) => ({ ...whoSubject(p), address: text(p.details, 'address') ?? '?' }),
  'addresses/conflict': (p) => ({ ...whoSubject(p), answered: text(p.details, 'answered') ?? '?', stored: text(p.details, 'stored') ?? '?' }),
  'notifications/preferences': who,
  'webhooks/add': whoSubject,
  'webhooks/remove': whoSubject,
  'audit/legacySealed': (p) => whoRows(p),
  'audit/checkpoint': (p) => ({ ...whoSubject(p), fingerprint: text(p.details, 'fingerprint') ?? '?' }),
  'audit/pack': (p) => whoRows(p),
  'audit/export': (p) => ({ ...whoRows(p), format: (text(p.details, 'format') ?? '?').toUpperCase() }),
  'callbacks/refused': (p) => ({ who: p.who, reason: reasonOf(p.details) }),
  'callbacks/refusedSummary': (p) => whoRows(p, 'notAudited'),
  'callbacks/start': (p) => ({ ...whoSubject(p), beyondLoopback: p.details['beyondLoopback'] === true }),
  'callbacks/unknownOrder': whoSubject,
  'demo/furnished': who,
  'demo/operators': who,
  'deposits/conflict': (p) => ({ ...whoSubject(p), fields: auditDetailsText(p.details['fields']) }),
  'deposits/poisoningSuspected': (p) => ({ ...whoSubject(p), looksLike: text(p.details, 'looksLike') ?? '?', similarity: text(p.details, 'similarity') ?? '?' }),
  'addressbook/controlProven': (p) => ({ ...whoSubject(p), txid: text(p.details, 'txid') ?? '?', amount: text(p.details, 'amount') ?? '?', currency: text(p.details, 'currency') ?? '?' }),
  'deposits/export': (p) => whoRows(p),
  'deposits/verified': (p) => {
    const missing = count(p.details, 'missingLocally') ?? 0;
    const notListed = count(p.details, 'notListed') ?? 0;
    const differing = count(p.details, 'differing') ?? 0;
    return { who: p.who, listed: count(p.details, 'listedByService') ?? 0, agree: missing + notListed + differing === 0, missing, notListed, differing };
  },
  'operators/wrongInvitationCode': whoSubject,
  'operators/wrongPassphrase': (p) => ({ ...whoSubject(p), failures: count(p.details, 'failures') ?? 1 }),
  'payouts/approveRefused': (p) => ({ who: p.who, batch: text(p.details, 'batch') ?? shortId(p.subject) }),
  'profiles/add': (p) => ({ ...whoSubject(p), merchantId: text(p.details, 'merchantId') }),
  'profiles/generateKey': whoSubject,
  'profiles/remove': (p) => ({ ...whoSubject(p), by: text(p.details, 'by') }),
  'session/unlock': whoSubject,
  'accounting/export': (p) => ({ who: p.who, journals: count(p.details, 'journals') ?? 0, target: text(p.details, 'format') === 'xero' ? 'Xero' : 'QuickBooks Online' }),
  'statements/export': (p) => ({ who: p.who, format: (text(p.details, 'format') ?? '?').toUpperCase() }),
  'team/profile': whoSubject,
  'team/genesis': (p) => ({ who: p.who, fingerprint: text(p.details, 'fingerprint') ?? '?' }),
  'withdrawals/accepted': (p) => ({ request: requestRef(p), apiOrder: text(p.details, 'apiOrder') }),
  'withdrawals/ambiguous': whoRequest,
  'withdrawals/approveRefused': whoRequest,
  'withdrawals/export': (p) => whoRows(p),
  'withdrawals/failureAnswered': (p) => ({ request: requestRef(p), reason: reasonOf(p.details) }),
  'withdrawals/mismatch': whoSubject,
  'withdrawals/orderMissing': (p) => ({ request: requestRef(p) }),
  'withdrawals/status': (p) => ({ subject: p.subject, status: text(p.details, 'status') ?? '?' }),
  'withdrawals/statusAfterFinal': (p) => ({ subject: p.subject, observed: text(p.details, 'observed') ?? '?', current: text(p.details, 'current') ?? '?' }),
  'withdrawals/stuck': (p) => ({ ...whoRequest(p), status: text(p.details, 'status') ?? '?' }),
  'withdrawals/submitFailed': whoRequest,
  'withdrawals/submitRefused': whoRequest,
  'withdrawals/sendHeld': (p) => {
    const holds = Array.isArray(p.details['holds']) ? p.details['holds'].filter((hold): hold is string => typeof hold === 'string').map(escapeSingleLine) : [];
    const joined = holds.join('; ');
    return { ...whoRequest(p), holds: joined === '' ? null : joined };
  },
};

export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_SENTENCES, action);
}

/** The actions AUDIT_SENTENCES knows, sorted (the kind filter offers them). */
export const AUDIT_ACTIONS: readonly string[] = Object.keys(AUDIT_SENTENCES).sort();

/** An action named for people (a filter's option): "withdrawals/submitRefused" → "Withdrawals: submit refused". */
export function auditActionLabel(action: string): string {
  const [domain = '', verb = ''] = escapeSingleLine(action).split('/', 2);
  const words = (text: string): string => text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/-/g, ' ').toLowerCase();
  const head = words(domain);
  return `${head.charAt(0).toUpperCase()}${head.slice(1)}${verb === '' ? '' : `: ${words(verb)}`}`;
}

/** The row as one sentence in `words` (English unless given); an action this version does not know shows its name and details, escaped. */
export function auditSentence(entry: AuditSentenceInput, format: AuditSentenceFormat = PLAIN_AMOUNTS, words: AuditWords = ENGLISH_AUDIT_WORDS): string {
  const parts: SentenceParts = {
    who: entry.operator === null ? words.theDesk : escapeSingleLine(entry.operator),
    subject: entry.subject === null ? '' : escapeSingleLine(entry.subject),
    profile: entry.profile === undefined || entry.profile === null ? words.ofTheDesk : escapeSingleLine(entry.profile),
    details: record(entry.details),
    withdrawal: entry.withdrawal ?? null,
    format,
    words,
  };
  if (isAuditAction(entry.action)) return sentenceOf(entry.action, parts);
  const details = auditDetailsText(entry.details);
  return words.unknown({ who: parts.who, action: escapeSingleLine(entry.action), subject: parts.subject === '' ? null : parts.subject, details: details === '' || details === '{}' ? null : details });
}

/** One known action's sentence: its values, said in the words given. */
function sentenceOf<A extends AuditAction>(action: A, parts: SentenceParts): string {
  const values = AUDIT_SENTENCES[action](parts);
  return (parts.words.sentences[action] as (values: AuditSentenceValues<A>) => string)(values);
}
