// The poisoning radar (issue 21 item 3): the senders of verified deposits compared with the signed address book across
// chains of one address format. Invariant: an alert, and the refusal to pay a flagged address, are derived only from
// verified deposits (facts the desk verified), the desk-signed flags the intake recorded (`deposits/poisoningSuspected`,
// accepted only under the registry's rule for their row) and the signed roster (book entries and radar clearances in
// force); no row of their own decides them. Editing or deleting a cached deposit row never clears an address: its
// signed flag still refuses it (and deleting the flag's row breaks the chain, which every send walks first).
import { z } from 'zod';
import {
  CHAIN_INFO,
  CHAINS,
  type Chain,
  isAddressType,
  LOOKALIKE_MIN_PER_END,
  lookAlikeReason,
  type LookAlikeReason,
  normalizeAddress,
  sameAddressFormat,
  sharedEdges,
} from '../../chains';
import type { DepositPoisoningMark, PoisoningFlag } from '../../contract';
import { type AuditRow, auditRowsOfAction } from '../audit';
import { type BookEntryInForce, parseStatement, type RadarClearanceInForce, type Roster, systemBodySchema } from '../ledger';
import type { ReadableDB } from '../store/database';
import { type Deposit, depositSenders, depositSendersStoredAfter, depositsFromSender, getDeposit } from './deposits-table';

/** The chain whose rules an address type's addresses follow (eth and bnb share one EVM format: eth stands for both). */
function chainOfAddressType(addressType: string): Chain | null {
  if (!isAddressType(addressType)) return null;
  return CHAINS.find((chain) => CHAIN_INFO[chain].addressType === addressType) ?? null;
}

const isEvm = (chain: Chain): boolean => CHAIN_INFO[chain].addressType === 'eth_bnb';

/** A book address a sender looks like, and why. */
export interface RadarLookAlike {
  readonly entry: BookEntryInForce;
  readonly reason: LookAlikeReason;
  /** How many leading and trailing characters of the normalized forms agree (case-insensitively, up to 6 each). */
  readonly prefix: number;
  readonly suffix: number;
}

/** A sender flagged by the radar: one per address (per address format), whatever the number of its deposits. */
export interface PoisoningAlert {
  /** The address as its first deposit reported it, and the chain whose rules it follows. */
  readonly sender: string;
  readonly chain: Chain;
  readonly lookAlike: RadarLookAlike;
  /** The evidence: its first verified deposit, and how many it sent. */
  readonly firstDeposit: Deposit;
  readonly deposits: number;
  /** The signed clearance in force, or null: the address is refused at preflight, request and send. */
  readonly cleared: RadarClearanceInForce | null;
}

/** One key per flagged sender: its address format and normalized address (an EVM sender in any letter case is one). */
export function normalizeSenderKey(alert: Pick<PoisoningAlert, 'sender' | 'chain'>): string {
  return `${CHAIN_INFO[alert.chain].addressType}:${normalizeAddress(alert.sender, alert.chain)}`;
}

/** The look-alike in words: "the same first 4 and last 4 characters", "the same characters in another letter case". */
export function lookAlikeWords(lookAlike: Pick<RadarLookAlike, 'reason' | 'prefix' | 'suffix'>): string {
  switch (lookAlike.reason) {
    case 'caseChanged':
      return 'the same characters in another letter case';
    case 'sameEdges':
    case 'similarEdges':
      return `the same first ${lookAlike.prefix} and last ${lookAlike.suffix} characters`;
    default: {
      const unreachable: never = lookAlike.reason;
      return unreachable;
    }
  }
}

/** `chain:address` of a book entry, as the book names it. */
export function bookEntryName(entry: BookEntryInForce): string {
  return `${entry.chain}:${entry.address}`;
}

/**
 * The signed book in force, indexed for the radar: every look-alike rule (chains/address/lookalike.ts) needs at least
 * LOOKALIKE_MIN_PER_END characters in common at each end (case-insensitively), so a sender is compared only with the
 * entries sharing its first and last three; a sender that is itself in the book (on any chain of its format) is none.
 */
export class RadarBook {
  readonly #byEdges = new Map<string, BookEntryInForce[]>();
  readonly #booked = new Set<string>();

  constructor(entries: readonly BookEntryInForce[]) {
    for (const entry of entries) {
      const chain = CHAINS.find((candidate) => candidate === entry.chain);
      if (chain === undefined) continue;
      const normalized = normalizeAddress(entry.address, chain);
      this.#booked.add(`${CHAIN_INFO[chain].addressType}:${normalized}`);
      const key = RadarBook.#edgeKey(chain, normalized);
      const list = this.#byEdges.get(key) ?? [];
      list.push(entry);
      this.#byEdges.set(key, list);
    }
  }

  static #edgeKey(chain: Chain, normalized: string): string {
    const lower = normalized.toLowerCase();
    return `${CHAIN_INFO[chain].addressType}:${lower.slice(0, LOOKALIKE_MIN_PER_END)}:${lower.slice(-LOOKALIKE_MIN_PER_END)}`;
  }

  /** The book entry `address` (of `chain`) looks like, or null: none, or the address is in the book itself. */
  match(chain: Chain, address: string): RadarLookAlike | null {
    const normalized = normalizeAddress(address, chain);
    if (normalized === '' || this.#booked.has(`${CHAIN_INFO[chain].addressType}:${normalized}`)) return null;
    for (const entry of this.#byEdges.get(RadarBook.#edgeKey(chain, normalized)) ?? []) {
      if (!sameAddressFormat(entry.chain, chain)) continue;
      const reason = lookAlikeReason(entry.address, address, chain);
      if (reason !== null) return { entry, reason, ...sharedEdges(normalizeAddress(entry.address, chain), normalized) };
    }
    return null;
  }
}

/** The radar's mark for each deposit (null: its sender looks like no book entry, or is one), in the order given. */
export function depositPoisoningMarks(roster: Roster, now: number, deposits: readonly Deposit[]): (DepositPoisoningMark | null)[] {
  const book = radarBook(roster, now);
  return deposits.map((deposit) => {
    const chain = chainOfAddressType(deposit.addressType);
    const lookAlike = chain === null ? null : book.match(chain, deposit.fromAddress);
    if (chain === null || lookAlike === null) return null;
    return { looksLike: bookEntryName(lookAlike.entry), similarity: lookAlikeWords(lookAlike), cleared: roster.radarClearance(chain, deposit.fromAddress, now) !== undefined };
  });
}

/** The radar's view of a profile: its signed book in force at `now`, and the clearances. */
function radarBook(roster: Roster, now: number): RadarBook {
  return new RadarBook(roster.bookEntries(now));
}

/**
 * Every sender of the profile's verified deposits that looks like a book address and is not in the book: one alert per
 * address (EVM: in any letter case, on eth or bnb alike), oldest first, with its first deposit as evidence. Idempotent:
 * derived afresh from the deposits and the roster, so a desk that upgrades sees its whole history at the first look.
 */
export function poisoningAlerts(db: ReadableDB, profile: string, roster: Roster, now: number): PoisoningAlert[] {
  const book = radarBook(roster, now);
  const found = new Map<string, { chain: Chain; lookAlike: RadarLookAlike; firstId: number; deposits: number }>();
  for (const sender of depositSenders(db, profile)) {
    const chain = chainOfAddressType(sender.addressType);
    if (chain === null) continue;
    const lookAlike = book.match(chain, sender.fromAddress);
    if (lookAlike === null) continue;
    const key = `${sender.addressType}:${normalizeAddress(sender.fromAddress, chain)}`;
    const seen = found.get(key);
    found.set(key, {
      chain,
      lookAlike,
      firstId: seen === undefined ? sender.firstId : Math.min(seen.firstId, sender.firstId),
      deposits: (seen?.deposits ?? 0) + sender.deposits,
    });
  }
  const alerts: PoisoningAlert[] = [];
  for (const alert of found.values()) {
    const firstDeposit = getDeposit(db, alert.firstId);
    if (firstDeposit === undefined) continue;
    const cleared = roster.radarClearance(alert.chain, firstDeposit.fromAddress, now) ?? null;
    alerts.push({ sender: firstDeposit.fromAddress, chain: alert.chain, lookAlike: alert.lookAlike, firstDeposit, deposits: alert.deposits, cleared });
  }
  return alerts.sort((a, b) => a.firstDeposit.id - b.firstDeposit.id);
}

/** The desk-signed record of a radar alert (sync/records.ts writes it once, at the intake that first sees the sender). */
export const POISONING_SUSPECTED_ACTION = 'deposits/poisoningSuspected';

/** What the radar reads of the chain: its rows, and the registry's rule for a row at its place (AuditTrail.refusal). */
export interface RadarParts {
  readonly db: ReadableDB;
  readonly trail: { refusal(row: AuditRow): string | null };
}

/** A radar flag the desk signed: the row, and the deposit it named (txid and order, as the intake saw it). */
export interface SignedPoisoningFlag {
  readonly seq: number;
  readonly txid: string;
  readonly apiOrder: string;
  readonly at: number;
}

const flagDetailsSchema = z.object({ txid: z.string(), apiOrder: z.string() });

/**
 * The first signed flag of `address` (of `chain`: EVM in any letter case, on eth or bnb alike) in `profile`, or null.
 * A flag counts only when the registry's rule accepts its row (signed by a desk key in force, a named desk event): a
 * planted or edited row is not one, so it neither refuses nor clears anything.
 */
export function signedPoisoningFlag(parts: RadarParts, profile: string, chain: Chain, address: string): SignedPoisoningFlag | null {
  const wanted = normalizeSenderKey({ sender: address, chain });
  for (const row of auditRowsOfAction(parts.db, POISONING_SUSPECTED_ACTION)) {
    if (row.profile !== profile || row.subject === null || normalizeSenderKey({ sender: row.subject, chain }) !== wanted) continue;
    const statement = parseStatement(row.statement);
    const body = statement === null ? null : systemBodySchema.safeParse(statement.body);
    const details = body?.success === true && body.data.action === POISONING_SUSPECTED_ACTION ? flagDetailsSchema.safeParse(body.data.details) : null;
    if (statement === null || statement.subject !== row.subject || details?.success !== true || parts.trail.refusal(row) !== null) continue;
    return { seq: row.seq, txid: details.data.txid, apiOrder: details.data.apiOrder, at: statement.at };
  }
  return null;
}

/**
 * The radar's finding for one address of `chain` from the verified deposits: its look-alike of a book address and the
 * deposits it sent, or null when it looks like none, is in the book, or sent nothing. Cheap: the deposits are read
 * only for a look-alike.
 */
function depositFinding(db: ReadableDB, profile: string, roster: Roster, chain: Chain, address: string, now: number): PoisoningAlert | null {
  const lookAlike = radarBook(roster, now).match(chain, address);
  if (lookAlike === null) return null;
  const evm = isEvm(chain);
  const from = evm ? normalizeAddress(address, chain) : address;
  const deposits = depositsFromSender(db, profile, CHAIN_INFO[chain].addressType, from, evm);
  const [firstDeposit] = deposits;
  if (firstDeposit === undefined) return null;
  const cleared = roster.radarClearance(chain, address, now) ?? null;
  return { sender: firstDeposit.fromAddress, chain, lookAlike, firstDeposit, deposits: deposits.length, cleared };
}

/**
 * The radar's finding for one address of `chain` (a destination about to be requested or sent): from its verified
 * deposits, or, when the cached deposits no longer hold any (a row deleted or edited), from the desk's signed flag of it
 * (`deposits` is then null and `flag` names the row). Null when it looks like no book entry, is in the book, or neither
 * a deposit nor a signed flag names it.
 */
export function poisoningFinding(
  parts: RadarParts,
  profile: string,
  roster: Roster,
  chain: Chain,
  address: string,
  now: number,
): { readonly fromDeposits: PoisoningAlert } | { readonly fromFlag: SignedPoisoningFlag; readonly lookAlike: RadarLookAlike; readonly cleared: RadarClearanceInForce | null } | null {
  const found = depositFinding(parts.db, profile, roster, chain, address, now);
  if (found !== null) return { fromDeposits: found };
  const lookAlike = radarBook(roster, now).match(chain, address);
  const flag = lookAlike === null ? null : signedPoisoningFlag(parts, profile, chain, address);
  if (lookAlike === null || flag === null) return null;
  return { fromFlag: flag, lookAlike, cleared: roster.radarClearance(chain, address, now) ?? null };
}

/**
 * Why paying `address` of `chain` is refused, or null: it sent a verified deposit (or the desk signed a flag of it) and
 * looks like a book address, and no clearance is in force (preflight, request and send all ask this).
 */
export function poisoningRefusal(parts: RadarParts, profile: string, roster: Roster, chain: Chain, address: string, now: number): string | null {
  const finding = poisoningFinding(parts, profile, roster, chain, address, now);
  if (finding === null) return null;
  const clearIt = `an admin clears it with "treasury-desk radar clear ${address} --as ADMIN" and another admin confirms it`;
  if ('fromFlag' in finding) {
    if (finding.cleared !== null) return null;
    const flag = finding.fromFlag;
    return (
      `${address} looks like book entry ${bookEntryName(finding.lookAlike.entry)} (${lookAlikeWords(finding.lookAlike)}); ` +
      `the desk flagged it as likely address poisoning in signed audit row ${flag.seq} (txid ${flag.txid}), but this workstation's deposits no longer hold that deposit: ` +
      `its database was edited or restored from an older copy; run "treasury-desk sync --full" to fetch the deposit again from the service, then ${clearIt}`
    );
  }
  const alert = finding.fromDeposits;
  if (alert.cleared !== null) return null;
  const deposit = alert.firstDeposit;
  return (
    `${address} looks like book entry ${bookEntryName(alert.lookAlike.entry)} (${lookAlikeWords(alert.lookAlike)}); ` +
    `a deposit from it on ${new Date(deposit.firstSeenAt).toISOString().slice(0, 16).replace('T', ' ')} UTC (${deposit.amount} ${deposit.currency}, txid ${deposit.txid}) ` +
    `was likely address poisoning; ${clearIt}`
  );
}

/**
 * The radar's flag on a destination for its approver and the policy simulator (withdrawals/review.ts, simulate.ts), or
 * null when it looks like no book entry and nothing flagged it: the entry, how, and who cleared it (null: refused).
 */
export function poisoningFlag(parts: RadarParts, profile: string, roster: Roster, chain: Chain, address: string, now: number): PoisoningFlag | null {
  const finding = poisoningFinding(parts, profile, roster, chain, address, now);
  if (finding === null) return null;
  const { lookAlike, cleared } = 'fromFlag' in finding ? finding : finding.fromDeposits;
  return {
    looksLike: bookEntryName(lookAlike.entry),
    similarity: lookAlikeWords(lookAlike),
    clearedBy: cleared === null ? null : [cleared.proposer, ...(cleared.confirmedBy === null ? [] : [cleared.confirmedBy])],
  };
}

/**
 * The senders first flagged by the deposits stored after `afterId` (their first deposit is among them): what an intake
 * records once. Reads only the new deposits, and the deposits of a sender that matches.
 */
export function newPoisoningAlerts(db: ReadableDB, profile: string, roster: Roster, now: number, afterId: number): PoisoningAlert[] {
  const book = radarBook(roster, now);
  const alerts = new Map<string, PoisoningAlert>();
  for (const deposit of depositSendersStoredAfter(db, profile, afterId)) {
    const chain = chainOfAddressType(deposit.addressType);
    if (chain === null || book.match(chain, deposit.fromAddress) === null) continue;
    const key = normalizeSenderKey({ sender: deposit.fromAddress, chain });
    if (alerts.has(key)) continue;
    const finding = depositFinding(db, profile, roster, chain, deposit.fromAddress, now);
    if (finding !== null && finding.firstDeposit.id > afterId) alerts.set(key, finding);
  }
  return [...alerts.values()];
}
