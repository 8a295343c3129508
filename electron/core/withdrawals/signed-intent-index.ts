// The profile's verified signed intents kept at the verified chain head in main-process memory (issue 20's benchmark): each request, reject or cancel row is judged once, and a window's amount and count are read from running totals (prefix sums per currency, initiator and destination) by binary search instead of summing every intent; the answer is the one a full read of the statements gives.
//
// Invariants that keep it equal to that full read (signed-spending.ts calls it only after a linkage walk held):
// - Rows are hash-chained: while the row at the remembered head seq still has the remembered hash, every row before it
//   is the one that was read. Anything else (a rollback, a row rewritten by hand, another database) starts it afresh.
// - A row's verdict (signer in verify.ts) depends on the roster's history up to that row only. It is kept only when the
//   roster given was built from every roster row of the profile (none after its throughSeq) and has the same founding;
//   with an older or a different roster, the full read answers instead and nothing is kept.
// - Nothing persists: a restart, or a database object dropped, starts empty.
import { type Chain, CURRENCIES, isCurrencySymbol, Money, normalizeAddress, parseMoney } from '../../chains';
import { type ChainRow, isBatchIntent, intentHash, parsedStatement, PROFILE_REMOVED, ROSTER_KINDS, type Roster, type WithdrawalIntent } from '../ledger';
import { auditHasRowsAfter, auditHead, auditRowsOfKindsBetween, auditRowsOfKindsSince, type AuditRow, getAuditRow } from '../audit';
import type { Kernel } from '../kernel/kernel';
import { HOUR_MS, MAX_WINDOW_HOURS, type SignedIntent, type VelocityCandidate, type VelocityScope, type VelocityTotals } from './velocity';
import { signer } from './verify';

type ReadableDb = Kernel['db'];

const SPENDING_KINDS = ['request', 'reject', 'cancel'] as const;

/** How far back a fresh index reads at least: the longest window, and a day more for a daily limit's day. */
const COVERED_MS = (MAX_WINDOW_HOURS + 24) * HOUR_MS;

/** Intents of one scope kept in signing-time order with running totals: sums[i] is the amount of entries[0..i). */
class Bucket {
  readonly entries: SignedIntent[] = [];
  #ats: number[] = [];
  #sums: Money[] = [new Money(0)];
  #stale = false;

  add(intent: SignedIntent): void {
    const last = this.entries.at(-1);
    if (last === undefined || last.at <= intent.at) {
      this.entries.push(intent);
      this.#ats.push(intent.at);
      if (!this.#stale) this.#sums.push((this.#sums.at(-1) ?? new Money(0)).plus(intent.amount));
      return;
    }
    // Signed out of order (another workstation's clock): put it in its place and total again when next read.
    const position = upperBound(this.#ats, intent.at);
    this.entries.splice(position, 0, intent);
    this.#ats.splice(position, 0, intent.at);
    this.#stale = true;
  }

  remove(keys: ReadonlySet<SignedIntent>): void {
    const kept = this.entries.filter((entry) => !keys.has(entry));
    if (kept.length === this.entries.length) return;
    this.entries.length = 0;
    this.entries.push(...kept);
    this.#ats = kept.map((entry) => entry.at);
    this.#stale = true;
  }

  #totals(): Money[] {
    if (this.#stale) {
      const sums = [new Money(0)];
      for (const entry of this.entries) sums.push((sums.at(-1) ?? new Money(0)).plus(entry.amount));
      this.#sums = sums;
      this.#stale = false;
    }
    return this.#sums;
  }

  /** Index range [from, to) of the entries signed in (after, through]. */
  #rangeOf(after: number, through: number): { from: number; to: number } {
    return { from: upperBound(this.#ats, after), to: upperBound(this.#ats, through) };
  }

  /** Count and amount of the entries signed in (after, through]. */
  within(after: number, through: number): { readonly count: number; readonly amount: Money } {
    const { from, to } = this.#rangeOf(after, through);
    if (to <= from) return { count: 0, amount: new Money(0) };
    const sums = this.#totals();
    return { count: to - from, amount: (sums[to] ?? new Money(0)).minus(sums[from] ?? new Money(0)) };
  }

  /** Count and amount of the entries signed in [start, end). */
  during(start: number, end: number): { readonly count: number; readonly amount: Money } {
    return this.within(start - 1, end - 1);
  }

  /** The entries signed in [start, end), oldest first. */
  slice(start: number, end: number): SignedIntent[] {
    const { from, to } = this.#rangeOf(start - 1, end - 1);
    return this.entries.slice(from, to);
  }
}

/** The first index whose value is above `value` in an ascending list. */
function upperBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] ?? 0) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The intents one request statement signed: its own, or a batch's lines (a batch statement carries them all). */
function signedIntents(row: ChainRow): readonly WithdrawalIntent[] {
  const body = row.statement.body;
  const batch = body['batch'];
  if (isBatchIntent(batch)) return batch.lines;
  const intent = body['intent'] as unknown as WithdrawalIntent | undefined;
  if (!intent || typeof intent !== 'object' || row.statement.subject !== intentHash(intent)) return [];
  return [intent];
}

/** The bucket names an intent is kept under: its currency, its initiator, and its destination as its chain compares addresses. */
function bucketNames(intent: Pick<SignedIntent, 'currency' | 'initiator' | 'destination'>): { currency: string; initiator: string; destination: string | null } {
  return {
    currency: `c\u0000${intent.currency}`,
    initiator: `i\u0000${intent.currency}\u0000${intent.initiator}`,
    destination: isCurrencySymbol(intent.currency) ? `d\u0000${intent.currency}\u0000${normalizeAddress(intent.destination, CURRENCIES[intent.currency].chain)}` : null,
  };
}

/** One profile's signed intents as of one chain head, under one founding. */
class ProfileIndex {
  readonly #buckets = new Map<string, Bucket>();
  /** subject → the intents its request statements signed (closed ones are removed). */
  readonly #bySubject = new Map<string, SignedIntent[]>();
  /** intent key → the intents kept under it (one, unless a subject was requested twice). */
  readonly #byKey = new Map<string, SignedIntent[]>();
  readonly #closed = new Set<string>();
  headSeq = 0;
  headHash = '';

  constructor(
    readonly foundingId: string | null,
    readonly coveredFrom: number,
    /** When it was built: one older than the longest window is built again, which drops the intents no window reaches. */
    readonly builtAt: number,
  ) {}

  /** Takes in rows in seq order: a verifying reject or cancel closes its subject, a verifying request adds its intents. */
  ingest(roster: Roster, profile: string, rows: readonly AuditRow[]): void {
    for (const row of rows) {
      const statement = parsedStatement({ hash: row.hash, text: row.statement });
      if (!statement || statement.profile !== profile) continue;
      const chainRow: ChainRow = { seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement };
      if (statement.kind === 'request') {
        if (this.#closed.has(statement.subject)) continue;
        const initiator = signer(roster, chainRow, 'requestWithdrawal');
        if (typeof initiator === 'string') continue;
        for (const intent of signedIntents(chainRow)) {
          let amount: Money;
          try {
            amount = parseMoney(intent.amount);
          } catch {
            continue; // a signed amount that is not a decimal cannot be sent either (the judge refuses it): it counts for nothing
          }
          this.#add(statement.subject, { key: `${statement.subject}/${intent.userOrder}`, currency: intent.currency, amount, initiator: initiator.name, destination: intent.toAddress, at: statement.at });
        }
      } else if (typeof signer(roster, chainRow, statement.kind === 'reject' ? 'rejectWithdrawal' : 'view') !== 'string') {
        this.#close(statement.subject);
      }
    }
  }

  #bucket(name: string): Bucket {
    let bucket = this.#buckets.get(name);
    if (!bucket) {
      bucket = new Bucket();
      this.#buckets.set(name, bucket);
    }
    return bucket;
  }

  #add(subject: string, intent: SignedIntent): void {
    this.#bySubject.set(subject, [...(this.#bySubject.get(subject) ?? []), intent]);
    this.#byKey.set(intent.key, [...(this.#byKey.get(intent.key) ?? []), intent]);
    const names = bucketNames(intent);
    this.#bucket(names.currency).add(intent);
    this.#bucket(names.initiator).add(intent);
    if (names.destination !== null) this.#bucket(names.destination).add(intent);
  }

  #close(subject: string): void {
    this.#closed.add(subject);
    const intents = this.#bySubject.get(subject);
    if (!intents) return;
    this.#bySubject.delete(subject);
    const gone = new Set(intents);
    const touched = new Set<string>();
    for (const intent of intents) {
      const names = bucketNames(intent);
      touched.add(names.currency).add(names.initiator);
      if (names.destination !== null) touched.add(names.destination);
      const sameKey = (this.#byKey.get(intent.key) ?? []).filter((kept) => kept !== intent);
      if (sameKey.length > 0) this.#byKey.set(intent.key, sameKey);
      else this.#byKey.delete(intent.key);
    }
    for (const name of touched) this.#buckets.get(name)?.remove(gone);
  }

  /** The kept intents of one bucket (by the scope's name), or an empty one. */
  bucket(name: string): Bucket {
    return this.#buckets.get(name) ?? new Bucket();
  }

  /** The kept intents under an intent key (a request being sent is one of them). */
  byKey(key: string): readonly SignedIntent[] {
    return this.#byKey.get(key) ?? [];
  }

  /** Amount and count of one currency's intents signed in [start, end) (a daily limit's day). */
  currencyDuring(currency: string, start: number, end: number): { readonly count: number; readonly amount: Money } {
    return this.bucket(bucketNames({ currency, initiator: '', destination: '' }).currency).during(start, end);
  }

  /** The running totals velocityBreaches reads (velocity.ts VelocityTotals), the candidate's own intent left out. */
  readonly totals: VelocityTotals = {
    within: (scope: VelocityScope, candidate: VelocityCandidate, after: number, through: number) => {
      if (scope === 'destination' && !(isCurrencySymbol(candidate.currency) && CURRENCIES[candidate.currency].chain === candidate.chain)) return null;
      const name = bucketNames(candidate)[scope];
      if (name === null) return null;
      const kept = this.bucket(name).within(after, through);
      let { count, amount } = kept;
      for (const own of candidate.key === null ? [] : this.byKey(candidate.key)) {
        if (bucketNames(own)[scope] !== name || own.at <= after || own.at > through) continue;
        count -= 1;
        amount = amount.minus(own.amount);
      }
      return { count, amount };
    },
  };

  /** The kept intents to `address` on `chain` (as the chain compares addresses), any of its currencies, oldest first. */
  toDestination(chain: Chain, address: string): SignedIntent[] {
    const out: SignedIntent[] = [];
    for (const symbol of Object.keys(CURRENCIES)) {
      if (!isCurrencySymbol(symbol) || CURRENCIES[symbol].chain !== chain) continue;
      const name = bucketNames({ currency: symbol, initiator: '', destination: address }).destination;
      if (name !== null) out.push(...this.bucket(name).entries);
    }
    return out.sort((a, b) => a.at - b.at);
  }

  /** Every kept intent signed in [start, end), any currency, oldest first. */
  all(start: number, end: number): SignedIntent[] {
    const out: SignedIntent[] = [];
    for (const [name, bucket] of this.#buckets) if (name.startsWith('c\u0000')) out.push(...bucket.slice(start, end));
    return out.sort((a, b) => a.at - b.at);
  }
}

/** Each database's indexes by profile; a database object dropped takes its indexes with it. */
const indexes = new WeakMap<ReadableDb, Map<string, ProfileIndex>>();

/** Counters for tests and the benchmark: how often an index was built afresh, brought up to date, or bypassed. */
const counters = { built: 0, extended: 0, bypassed: 0 };

export function signedIntentIndexStats(): { readonly built: number; readonly extended: number; readonly bypassed: number } {
  return { ...counters };
}

/** Drops a database's indexes (the benchmark's cold runs; tests that compare a fresh read with the kept one). */
export function forgetSignedIntents(db: ReadableDb): void {
  indexes.delete(db);
}

/**
 * The profile's verified signed intents, up to date with the chain's head and covering those signed from `start` on:
 * the kept index, or one read for this answer only when `roster` may not judge the rows kept (it was replayed before a
 * later roster row). Call after a linkage walk held.
 */
export function signedIntentIndex(parts: { readonly db: ReadableDb; readonly now: () => number }, roster: Roster, profile: string, start: number): ProfileIndex {
  const db = parts.db;
  const head = auditHead(db);
  const headSeq = head?.seq ?? 0;
  if (auditHasRowsAfter(db, profile, roster.throughSeq, { kinds: ROSTER_KINDS, action: PROFILE_REMOVED })) {
    // This roster was replayed before a later roster row: its verdicts are this answer's only, so nothing is kept.
    counters.bypassed += 1;
    const once = new ProfileIndex(roster.foundingId, start, parts.now());
    once.ingest(roster, profile, auditRowsOfKindsSince(db, profile, SPENDING_KINDS, start).filter((row) => row.seq <= headSeq));
    return once;
  }
  let byProfile = indexes.get(db);
  if (!byProfile) {
    byProfile = new Map();
    indexes.set(db, byProfile);
  }
  let index = byProfile.get(profile);
  const usable =
    index !== undefined &&
    index.foundingId === roster.foundingId &&
    start >= index.coveredFrom &&
    Math.abs(parts.now() - index.builtAt) < COVERED_MS &&
    headSeq >= index.headSeq &&
    (index.headSeq === 0 || getAuditRow(db, index.headSeq)?.hash === index.headHash);
  if (!index || !usable) {
    index = new ProfileIndex(roster.foundingId, Math.min(start, parts.now() - COVERED_MS), parts.now());
    index.ingest(roster, profile, auditRowsOfKindsSince(db, profile, SPENDING_KINDS, index.coveredFrom).filter((row) => row.seq <= headSeq));
    counters.built += 1;
  } else if (headSeq > index.headSeq) {
    index.ingest(roster, profile, auditRowsOfKindsBetween(db, profile, SPENDING_KINDS, index.headSeq, headSeq));
    counters.extended += 1;
  }
  index.headSeq = headSeq;
  index.headHash = head?.hash ?? '';
  byProfile.set(profile, index);
  return index;
}

export type { ProfileIndex };
