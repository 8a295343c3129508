// One plain sentence per audit row ("alice approved withdrawal ABCD-… of 1,250.5 USDT on TRON to T…"), for the app,
// the CLI and the engine's search alike; pure. Every action the desk records has its own sentence in AUDIT_SENTENCES
// (test/unit/contract/audit-sentences.test.ts fails when the engine's registry names one without), an unknown action
// still shows its name and details; every text that came from people or the network is escaped (display-text.ts).
import { CURRENCIES, isCurrencySymbol } from '../chains';
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
export function currencyName(symbol: string): string {
  return isCurrencySymbol(symbol) ? CURRENCIES[symbol].displayName : escapeSingleLine(symbol);
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

interface SentenceParts {
  /** Who: the operator's name, or "The desk" for the desk key. */
  readonly who: string;
  readonly subject: string;
  readonly profile: string;
  readonly details: Details;
  readonly withdrawal: AuditWithdrawalContext | null;
  readonly format: AuditSentenceFormat;
}

/** "withdrawal ABCD-EFGH-IJKL-MNOP of 12.5 USDT on TRON to T…" from the joined request, or the subject's start. */
function withdrawalPhrase(parts: SentenceParts): string {
  const w = parts.withdrawal;
  if (w === null) return parts.subject === '' ? 'a withdrawal' : `withdrawal ${shortId(parts.subject)}`;
  if (w.batchLines !== null) return `payout batch ${shortId(parts.subject)} of ${plural(w.batchLines, 'line')}`;
  const name = w.fingerprint === null ? shortId(parts.subject) : escapeSingleLine(w.fingerprint);
  const amount = w.amount !== null && w.currency !== null ? ` of ${parts.format.amount(w.amount, w.currency)}` : '';
  const to = w.toAddress === null ? '' : ` to ${escapeSingleLine(w.toAddress)}`;
  return `withdrawal ${name}${amount}${to}`;
}

function shortId(value: string): string {
  const safe = escapeSingleLine(value);
  return safe.length > 12 ? `${safe.slice(0, 8)}…` : safe;
}

function requestRef(parts: SentenceParts): string {
  const id = text(parts.details, 'id');
  return id === null ? `the withdrawal with order ${parts.subject}` : `withdrawal request ${id} (order ${parts.subject})`;
}

function withReason(sentence: string, reason: string | null): string {
  return reason === null || reason === '' ? sentence : `${sentence}: ${reason}`;
}

type Sentence = (parts: SentenceParts) => string;

/**
 * Every action the desk records (the kinds' `domain/verb` from audit-table.ts actionOf, the operator actions of
 * ledger/kinds/action.ts and the desk events of ledger/kinds/system.ts), each with its sentence.
 */
export const AUDIT_SENTENCES: Readonly<Record<string, Sentence>> = {
  // decisions about a withdrawal or a payout batch (signed by the operator)
  'withdrawals/request': (p) => `${p.who} requested ${withdrawalPhrase(p)}`,
  'withdrawals/approve': (p) => `${p.who} approved ${withdrawalPhrase(p)}`,
  'withdrawals/reject': (p) => withReason(`${p.who} rejected ${withdrawalPhrase(p)}`, text(p.details, 'reason')),
  'withdrawals/cancel': (p) => withReason(`${p.who} cancelled ${withdrawalPhrase(p)}`, text(p.details, 'reason')),
  'withdrawals/submit': (p) => `${p.who} sent ${withdrawalPhrase(p)} to the service`,
  // roster, policy, address book and profile proposals (signed by the operator)
  'operators/found': (p) => `${p.who} signed the founding of profile ${p.profile}, as one of its first admins`,
  'operators/enrol': (p) => `${p.who} proposed to enrol ${p.subject}${text(p.details, 'role') === null ? '' : ` as ${text(p.details, 'role')}`}`,
  'operators/rekey': (p) => `${p.who} proposed a new signing key for ${p.subject}`,
  'operators/role': (p) => `${p.who} proposed to make ${p.subject} ${text(p.details, 'role') ?? 'another role'}`,
  'operators/disable': (p) => `${p.who} proposed to disable ${p.subject}`,
  'operators/accept': (p) => `${p.who} accepted the invitation and set their signing key`,
  'operators/confirm': (p) => `${p.who} confirmed the proposal about ${p.subject}`,
  'operators/withdraw-proposal': (p) => `${p.who} withdrew the proposal about ${p.subject}`,
  'operators/passphrase': (p) => `${p.who} changed their passphrase`,
  'operators/device': (p) => `${p.who} added their key on workstation ${text(p.details, 'workstation') ?? p.subject}`,
  'policies/propose': (p) => `${p.who} proposed a new approval policy for ${currencyName(p.subject)}`,
  'addressbook/propose': (p) => {
    const label = text(p.details, 'label');
    return `${p.who} proposed to add ${p.subject} to the address book${label === null ? '' : ` as "${label}"`}`;
  },
  'addressbook/remove': (p) => `${p.who} removed ${p.subject} from the address book`,
  'sending/freeze': (p) => {
    const reason = text(p.details, 'reason');
    return `${p.who} froze all sending${reason === null ? '' : `: "${reason}"`}`;
  },
  'operators/propose-group': (p) => `${p.who} proposed the members of approval group ${p.subject}`,
  'sending/propose-unfreeze': (p) => `${p.who} proposed lifting the freeze on sending`,
  'governance/propose': (p) => `${p.who} proposed a governance change (loosening delay, freeze lift)`,
  'governance/veto': (p) => `${p.who} vetoed scheduled change ${p.subject.slice(0, 12)}`,
  'payees/propose': (p) => `${p.who} proposed new payees and their addresses for the address book`,
  'radar/propose-clear': (p) => `${p.who} proposed clearing ${p.subject}, flagged by the poisoning radar`,
  'profiles/propose-add': (p) => `${p.who} proposed to add profile ${p.subject}${text(p.details, 'merchantId') === null ? '' : ` (merchant ${text(p.details, 'merchantId')})`}`,
  'profiles/propose-remove': (p) => `${p.who} proposed to remove profile ${p.subject}`,
  // operators' audited actions (ledger/kinds/action.ts)
  'team/workstation': (p) => `${p.who} enrolled workstation ${text(p.details, 'workstation') ?? p.subject} in the team`,
  'team/workstationLeft': (p) => `${p.who} retired workstation ${text(p.details, 'workstation') ?? p.subject} from the team`,
  'audit/anchorMoved': (p) => `${p.who} moved the desk key and audit anchor from the ${text(p.details, 'from') ?? '?'} to the ${text(p.details, 'to') ?? '?'}`,
  'team/reanchored': (p) => `${p.who} confirmed re-anchoring the team database after a restore`,
  'settings/lockTimeout': (p) => `${p.who} set the idle lock to ${text(p.details, 'seconds') ?? '?'} seconds`,
  'settings/stuckThresholds': (p) => `${p.who} changed the thresholds after which an order counts as stuck`,
  'settings/reportingTimeZone': (p) => `${p.who} set the reporting time zone to ${text(p.details, 'timeZone') ?? '?'}`,
  'addressbook/forget': (p) => `${p.who} forgot the destination ${text(p.details, 'address') ?? p.subject}`,
  'addressbook/label': (p) => `${p.who} labelled ${p.subject} "${text(p.details, 'label') ?? ''}"`,
  'addressbook/proveRequest': (p) => `${p.who} asked for proof of control of ${p.subject}: a deposit from it to ${text(p.details, 'depositAddress') ?? '?'}`,
  'labels/set': (p) => `${p.who} labelled ${p.subject} "${text(p.details, 'label') ?? ''}"`,
  'labels/import': (p) => `${p.who} imported ${plural(count(p.details, 'rows') ?? 0, 'label')}`,
  'addresses/create': (p) => `${p.who} created deposit address ${text(p.details, 'address') ?? '?'} (order ${p.subject})`,
  'addresses/conflict': (p) => `${p.who} was answered address ${text(p.details, 'answered') ?? '?'} for order ${p.subject}, which already had ${text(p.details, 'stored') ?? '?'}`,
  'notifications/preferences': (p) => `${p.who} changed their notification preferences`,
  'webhooks/add': (p) => `${p.who} added webhook endpoint ${p.subject}`,
  'webhooks/remove': (p) => `${p.who} removed webhook endpoint ${p.subject}`,
  // desk events, signed by a desk key (ledger/kinds/system.ts)
  'audit/legacySealed': (p) => `${p.who} sealed ${plural(count(p.details, 'rows') ?? 0, 'unsigned entry', 'unsigned entries')} from before signed approvals`,
  'audit/checkpoint': (p) => `${p.who} saved a checkpoint of entry #${p.subject} (fingerprint ${text(p.details, 'fingerprint') ?? '?'})`,
  'audit/pack': (p) => `${p.who} built an auditor pack of ${plural(count(p.details, 'rows') ?? 0, 'audit entry', 'audit entries')}`,
  'audit/export': (p) => `${p.who} exported ${plural(count(p.details, 'rows') ?? 0, 'audit entry', 'audit entries')} as ${(text(p.details, 'format') ?? '?').toUpperCase()}`,
  'callbacks/refused': (p) => withReason(`${p.who} refused a callback`, text(p.details, 'reason')),
  'callbacks/refusedSummary': (p) => `${p.who} refused ${plural(count(p.details, 'notAudited') ?? 0, 'more callback')} (not recorded one by one)`,
  'callbacks/start': (p) => `${p.who} started listening for callbacks at ${p.subject}${p.details['beyondLoopback'] === true ? ', reachable beyond this computer' : ''}`,
  'callbacks/unknownOrder': (p) => `${p.who} received a callback for order ${p.subject}, which it never sent`,
  'demo/operators': (p) => `${p.who} created the demo operators`,
  'deposits/conflict': (p) => `${p.who} saw deposit ${p.subject} reported differently (${auditDetailsText(p.details['fields'])})`,
  'deposits/poisoningSuspected': (p) => `${p.who} saw a deposit from ${p.subject}, which looks like address-book entry ${text(p.details, 'looksLike') ?? '?'} (${text(p.details, 'similarity') ?? '?'}): likely address poisoning`,
  'addressbook/controlProven': (p) => `${p.who} saw control of ${p.subject} proven by deposit ${text(p.details, 'txid') ?? '?'} (${text(p.details, 'amount') ?? '?'} ${text(p.details, 'currency') ?? '?'})`,
  'deposits/export': (p) => `${p.who} exported ${plural(count(p.details, 'rows') ?? 0, 'deposit')}`,
  'deposits/verified': (p) => {
    const listed = count(p.details, 'listedByService') ?? 0;
    const missing = count(p.details, 'missingLocally') ?? 0;
    const notListed = count(p.details, 'notListed') ?? 0;
    const differing = count(p.details, 'differing') ?? 0;
    const whole = missing + notListed + differing === 0;
    return `${p.who} compared the deposit history with the service's ${plural(listed, 'deposit')}: ${whole ? 'they agree' : `${missing} missing here, ${notListed} not listed there, ${differing} differing`}`;
  },
  'operators/wrongInvitationCode': (p) => `${p.who} refused a wrong invitation code for ${p.subject}`,
  'operators/wrongPassphrase': (p) => `${p.who} refused a wrong passphrase for ${p.subject} (${plural(count(p.details, 'failures') ?? 1, 'failure')})`,
  'payouts/approveRefused': (p) => `${p.who} refused a decision on payout batch ${text(p.details, 'batch') ?? shortId(p.subject)}: its statements do not verify`,
  'profiles/add': (p) => `${p.who} added profile ${p.subject}${text(p.details, 'merchantId') === null ? '' : ` (merchant ${text(p.details, 'merchantId')})`}`,
  'profiles/generateKey': (p) => `${p.who} generated a merchant key for profile ${p.subject}`,
  'profiles/remove': (p) => `${p.who} removed profile ${p.subject}${text(p.details, 'by') === null ? '' : ` at ${text(p.details, 'by')}'s request`}`,
  'session/unlock': (p) => `${p.who} unlocked the desk for ${p.subject}`,
  'accounting/export': (p) => `${p.who} exported ${plural(count(p.details, 'journals') ?? 0, 'journal')} for ${text(p.details, 'format') === 'xero' ? 'Xero' : 'QuickBooks Online'}`,
  'statements/export': (p) => `${p.who} exported a statement as ${(text(p.details, 'format') ?? '?').toUpperCase()}`,
  'team/profile': (p) => `${p.who} shared profile ${p.subject} with the team`,
  'team/genesis': (p) => `${p.who} marked the team desk's genesis (fingerprint ${text(p.details, 'fingerprint') ?? '?'})`,
  'withdrawals/accepted': (p) => `The service accepted ${requestRef(p)}${text(p.details, 'apiOrder') === null ? '' : ` as ${text(p.details, 'apiOrder')}`}`,
  'withdrawals/ambiguous': (p) => `${p.who} could not tell whether the service took ${requestRef(p)}; it will ask the service`,
  'withdrawals/approveRefused': (p) => `${p.who} refused a decision on ${requestRef(p)}: its statements do not verify`,
  'withdrawals/export': (p) => `${p.who} exported ${plural(count(p.details, 'rows') ?? 0, 'withdrawal')}`,
  'withdrawals/failureAnswered': (p) => withReason(`The service refused ${requestRef(p)}`, text(p.details, 'reason')),
  'withdrawals/mismatch': (p) => `${p.who} saw order ${p.subject} reported differently from what was sent`,
  'withdrawals/orderMissing': (p) => `The service does not know ${requestRef(p)}: it was never sent`,
  'withdrawals/status': (p) => `The service reported order ${p.subject} as ${text(p.details, 'status') ?? '?'}`,
  'withdrawals/statusAfterFinal': (p) => `The service reported order ${p.subject} as ${text(p.details, 'observed') ?? '?'} after it was final (${text(p.details, 'current') ?? '?'})`,
  'withdrawals/stuck': (p) => `${p.who} flagged ${requestRef(p)} as stuck in ${text(p.details, 'status') ?? '?'}`,
  'withdrawals/submitFailed': (p) => `${p.who} found ${requestRef(p)} was not taken by the service`,
  'withdrawals/submitRefused': (p) => `${p.who} refused to send ${requestRef(p)}: its statements do not verify`,
  'withdrawals/sendHeld': (p) => {
    const holds = Array.isArray(p.details['holds']) ? p.details['holds'].filter((hold): hold is string => typeof hold === 'string').map(escapeSingleLine) : [];
    return withReason(`${p.who} held ${requestRef(p)} instead of sending it`, holds.length === 0 ? null : holds.join('; '));
  },
};

/** The actions AUDIT_SENTENCES knows, sorted (the kind filter offers them). */
export const AUDIT_ACTIONS: readonly string[] = Object.keys(AUDIT_SENTENCES).sort();

/** An action named for people (a filter's option): "withdrawals/submitRefused" → "Withdrawals: submit refused". */
export function auditActionLabel(action: string): string {
  const [domain = '', verb = ''] = escapeSingleLine(action).split('/', 2);
  const words = (text: string): string => text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/-/g, ' ').toLowerCase();
  const head = words(domain);
  return `${head.charAt(0).toUpperCase()}${head.slice(1)}${verb === '' ? '' : `: ${words(verb)}`}`;
}

/** The row as one sentence; an action this version does not know shows its name and details, escaped. */
export function auditSentence(entry: AuditSentenceInput, format: AuditSentenceFormat = PLAIN_AMOUNTS): string {
  const parts: SentenceParts = {
    who: entry.operator === null ? 'The desk' : escapeSingleLine(entry.operator),
    subject: entry.subject === null ? '' : escapeSingleLine(entry.subject),
    profile: entry.profile === undefined || entry.profile === null ? 'of the desk' : escapeSingleLine(entry.profile),
    details: record(entry.details),
    withdrawal: entry.withdrawal ?? null,
    format,
  };
  const sentence = Object.hasOwn(AUDIT_SENTENCES, entry.action) ? AUDIT_SENTENCES[entry.action] : undefined;
  if (sentence !== undefined) return sentence(parts);
  const details = auditDetailsText(entry.details);
  const subject = parts.subject === '' ? '' : ` about ${parts.subject}`;
  return `${parts.who} recorded ${escapeSingleLine(entry.action)}${subject}${details === '' || details === '{}' ? '' : `: ${details}`}`;
}
