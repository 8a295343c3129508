// The roster of a desk profile, rebuilt from its signed roster statements alone (never from the operators table):
// who is enrolled with which key and role, since which audit row, who was disabled when, each operator's party, the
// policies in force, and the proposals waiting for a second admin (APPROVALS.md "Who can do what"). Pure: callers
// hand it the profile's roster rows in chain order; every row's signature is checked here against the roster as it
// stood just before that row, and a row that does not verify or breaks a rule is reported and has no effect.
import { CHAIN_INFO, isChain, normalizeAddress } from '../../chains';
import type { OperatorRole } from '../auth/roles';
import { isOperatorRole, roleMay, roleWithArticle } from '../auth/roles';
import { importPublicKey, keyIdOf } from '../statements/keys';
import { canonicalHash, type Statement } from '../statements/statement';
import { signatureHolds } from '../statements/verified-signatures';
import { acceptCodeProblem } from './invitation-code';
import { PROFILE_REMOVED } from './profile-removed';
import { snapshotKey } from './operator-keys';
import type { CanonicalValue } from '../statements/canonical';
import { proposalWithdrawalProblem } from './proposal-withdrawal';
import { GroupHistory, groupMembersOf } from './approval-groups';
import { parsePayees, PayeeRegistry, PAYEES_SUBJECT, type PayeeInForce } from './payees';
import { DEFAULT_GOVERNANCE, type Governance, GOVERNANCE_SUBJECT, governanceLoosens, HOUR_MS, inForceAt, parseGovernance, policyLoosens } from './loosening';

/** The system event that ends a profile's roster (core/profiles removeProfile). */

export interface ChainRow {
  readonly seq: number;
  readonly hash: string;
  readonly text: string;
  readonly signature: string;
  readonly statement: Statement;
}

/** One operator as they stood from `fromSeq` (exclusive of earlier rows) until the next snapshot. */
export interface OperatorSnapshot {
  readonly fromSeq: number;
  readonly role: OperatorRole;
  readonly status: 'active' | 'disabled';
  readonly keyId: string;
  readonly publicKey: string;
  /** Lower-case names of everyone this operator's decisions may stand for (APPROVALS.md "Party"). */
  readonly party: readonly string[];
  readonly founding: boolean;
  /** The admins whose statements enrolled (or last re-keyed) them. */
  readonly enrolledBy: readonly string[];
  /** The device keys confirmed for other workstations since the last (re-)key: each signs for them too. */
  readonly devices: readonly DeviceKey[];
}

/** An operator's key for one workstation (APPROVALS.md "Public keys only"), in force once confirmed. */
export interface DeviceKey {
  readonly workstation: string;
  readonly keyId: string;
  readonly publicKey: string;
  /** Who confirmed it: the operator themself (from another workstation) or an admin. */
  readonly confirmedBy: string;
}

/** A device key proposed (signed by itself) and waiting for the operator's other key or an admin to confirm it. */
export interface PendingDevice {
  /** The proposing row's hash: what `confirm` names. */
  readonly id: string;
  readonly seq: number;
  readonly at: number;
  readonly operator: string;
  readonly workstation: string;
  readonly keyId: string;
  readonly publicKey: string;
  state: 'open' | 'applied';
}


export interface RosterOperator {
  readonly name: string;
  readonly history: readonly OperatorSnapshot[];
}

export type ProposalKind = 'enrol' | 'rekey' | 'role' | 'disable' | 'policy' | 'book' | 'profile-add' | 'profile-remove' | 'unfreeze' | 'group' | 'governance' | 'radar-clear' | 'payees';

/** The subject of freeze and unfreeze statements: what they stop is all of the profile's sending. */
export const SENDING_SUBJECT = 'sending';

/** Sending frozen by one admin's signed `freeze` (issue 20, BitGo's freeze): nothing is sent until two admins lift it. */
export interface FreezeInForce {
  readonly by: string;
  /** The freezing admin's signed time (ms). */
  readonly since: number;
  readonly seq: number;
  readonly reason: string;
  /** A lift applied and scheduled (a time lock or the loosening delay): sending resumes at `liftAt` unless vetoed. */
  readonly liftAt: number | null;
  readonly liftId: string | null;
}

/**
 * A loosening change applied and waiting for its delay (issue 20 part 4): in force from `effectiveAt` by the reader's
 * clock, unless an admin vetoed it before then.
 */
export interface ScheduledChange {
  /** The proposal's id: what a veto names. */
  readonly id: string;
  readonly kind: ProposalKind;
  readonly subject: string;
  readonly proposer: string;
  readonly confirmedBy: string | null;
  /** The signed time of the row that applied it, and when it takes effect. */
  readonly appliedAt: number;
  readonly effectiveAt: number;
  /** What it loosens, in words. */
  readonly loosens: readonly string[];
  vetoedBy: string | null;
  vetoedAt: number | null;
  /** The vetoing admin's reason, as signed (null: none given). */
  vetoReason: string | null;
}

/** A governance setting applied (in force from `effectiveAt`). */
export interface GovernanceInForce {
  readonly id: string;
  readonly fromSeq: number;
  readonly effectiveAt: number;
  readonly governance: Governance;
}

/** A profile addition in force (ledger/trust-roots.ts): the profile it lets be founded, with its merchant ID and founders' keys. */
export interface ProfileAddition {
  readonly id: string;
  readonly profile: string;
  readonly merchantId: string;
  readonly admins: readonly { readonly name: string; readonly publicKey: string }[];
  readonly fromSeq: number;
}

export interface Proposal {
  /** The proposing row's hash: what `accept`, `confirm` and `withdraw-proposal` refer to. */
  readonly id: string;
  readonly seq: number;
  readonly at: number;
  readonly kind: ProposalKind;
  readonly subject: string;
  readonly body: Readonly<Record<string, CanonicalValue>>;
  readonly proposer: string;
  /** Whether a second, independent admin must confirm it (the desk had two independent admins when proposed). */
  readonly needsConfirmation: boolean;
  accepted: { readonly keyId: string; readonly publicKey: string; readonly seq: number } | null;
  confirmedBy: string | null;
  state: 'open' | 'applied' | 'withdrawn';
}

export interface PolicyInForce {
  /** The proposing row's hash: what an intent cites. */
  readonly id: string;
  readonly fromSeq: number;
  /** When it takes effect (the applying row's signed time, plus the loosening delay when it loosens). */
  readonly effectiveAt: number;
  readonly policy: Readonly<Record<string, CanonicalValue>>;
}

/** An address in the withdrawal address book by signed statements: an addition applied (confirmed where needed). */
export interface BookEntryInForce {
  /** `chain:address` as the proposal named it. */
  readonly subject: string;
  readonly chain: string;
  readonly address: string;
  /** The proposal's id (its row's hash). */
  readonly id: string;
  readonly proposer: string;
  readonly confirmedBy: string | null;
  /** The seq and signer's time of the row that put it in force (the proposal, or its confirmation), plus the loosening delay. */
  readonly fromSeq: number;
  readonly since: number;
  /** The payee it is attributed to (its id), or null for an address booked on its own. */
  readonly payee: string | null;
}

/**
 * An address the poisoning radar flagged, cleared by signed statements (a `radar-clear` applied, confirmed where
 * needed): in force from `since` for every chain of its address format (eth and bnb: one EVM address).
 */
export interface RadarClearanceInForce {
  /** `chain:address` as the proposal named it. */
  readonly subject: string;
  /** The book entry it looks like, as the clearing admin saw it. */
  readonly looksLike: string;
  readonly id: string;
  readonly proposer: string;
  readonly confirmedBy: string | null;
  readonly since: number;
}

/** The radar's key for an address: its chain's address format and the normalized address (eth and bnb share one). */
function radarKey(chain: string, address: string): string {
  return isChain(chain) ? `${CHAIN_INFO[chain].addressType}:${normalizeAddress(address, chain)}` : `${chain}:${address}`;
}

/** `chain:address` → the chain and the address, or null when the subject is not one. */
export function parseBookSubject(subject: string): { chain: string; address: string } | null {
  const colon = subject.indexOf(':');
  if (colon < 1 || colon === subject.length - 1) return null;
  const chain = subject.slice(0, colon);
  return isChain(chain) ? { chain, address: subject.slice(colon + 1) } : null;
}

/** The book's key for a subject: the chain and the normalized address (EVM: any letter case is one entry). */
function bookKey(chain: string, address: string): string {
  return `${chain}:${isChain(chain) ? normalizeAddress(address, chain) : address}`;
}

export interface RosterProblem {
  readonly seq: number;
  readonly reason: string;
}

interface MutableOperator {
  readonly name: string;
  readonly history: OperatorSnapshot[];
}

const lower = (name: string): string => name.toLowerCase();

/** The roster of one profile. Build it with `Roster.replay(rows)`. */
export class Roster {
  readonly #operators = new Map<string, MutableOperator>();
  readonly #proposals = new Map<string, Proposal>();
  readonly #policies = new Map<string, PolicyInForce[]>();
  readonly #deskKeys = new Map<string, string>();
  readonly #book = new Map<string, BookEntryInForce>();
  readonly #radarCleared = new Map<string, RadarClearanceInForce>();
  readonly #payees = new PayeeRegistry();
  readonly #devices = new Map<string, PendingDevice>();
  /** The signer's time of the row being applied (what a book entry's `since` records). */
  #rowAt = 0;
  /** The latest signed time replayed: the clock of a read that names none. */
  #lastAt = 0;
  readonly #governance: GovernanceInForce[] = [];
  readonly #scheduled = new Map<string, ScheduledChange>();
  readonly problems: RosterProblem[] = [];
  #foundingId: string | null = null;
  #foundingMerchantId: string | null = null;
  /** Set once a four-eyes `profile-remove` of this very profile is applied: the roster ends there. */
  #ended = false;
  readonly #additions: ProfileAddition[] = [];
  #frozen: FreezeInForce | null = null;
  readonly #foundingSignatures = new Map<string, Set<string>>();
  readonly #groups = new GroupHistory();
  /** The last chain row this roster was built from (applied, or a system row handed to replay): a reader of rows after it may judge them with this roster only while no roster row follows it. */
  #throughSeq = 0;

  /**
   * Replays a profile's roster rows. A desk-signed `profiles/remove` system row (accepted only when
   * `isDeskSigned` vouches for it) ends the profile's roster: a profile imported again under that name starts unfounded.
   */
  static replay(rows: Iterable<ChainRow>, isDeskSigned: (row: ChainRow) => boolean = () => false): Roster {
    let roster = new Roster();
    let throughSeq = 0;
    for (const row of rows) {
      throughSeq = Math.max(throughSeq, row.seq);
      if (row.statement.kind === 'system') {
        if (row.statement.body['action'] === PROFILE_REMOVED && isDeskSigned(row)) roster = new Roster();
        continue;
      }
      roster.apply(row);
      if (roster.ended) roster = new Roster();
    }
    roster.#throughSeq = Math.max(roster.#throughSeq, throughSeq);
    return roster;
  }

  /** The seq of the last chain row this roster was built from (0 for an empty one). */
  get throughSeq(): number {
    return this.#throughSeq;
  }

  /** Whether a `profile-remove` of this profile was applied (the roster ends; a new founding needs a profile addition). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The merchant ID the founding row signed, or null while unfounded. */
  get foundingMerchantId(): string | null {
    return this.#foundingMerchantId;
  }

  /** The profile additions this roster's admins put in force (ledger/trust-roots.ts). */
  profileAdditions(): readonly ProfileAddition[] {
    return this.#additions;
  }

  /** The freeze in force by the latest signed row's time, or null when the profile's sending is not frozen. */
  get frozen(): FreezeInForce | null {
    return this.frozenAt();
  }

  /** The freeze in force at `now` (default: the latest signed row's time): a scheduled lift counts from its time. */
  frozenAt(now?: number): FreezeInForce | null {
    const frozen = this.#frozen;
    return frozen !== null && frozen.liftAt !== null && inForceAt(frozen.liftAt, this.#clock(now)) ? null : frozen;
  }

  /** The governance setting in force at `now` (DEFAULT_GOVERNANCE when never set) and its reference. */
  governanceAt(now?: number): GovernanceInForce | null {
    const clock = this.#clock(now);
    return this.#governance.filter((entry) => inForceAt(entry.effectiveAt, clock)).at(-1) ?? null;
  }

  /** Loosening changes applied and not yet in force at `now`, nor vetoed: what an admin may still veto. */
  scheduledChanges(now?: number): ScheduledChange[] {
    const clock = this.#clock(now);
    return [...this.#scheduled.values()].filter((change) => change.vetoedBy === null && !inForceAt(change.effectiveAt, clock));
  }

  /** Every loosening change ever scheduled, in the order applied: waiting, vetoed or in force (the governance screen's record). */
  scheduledHistory(): readonly ScheduledChange[] {
    return [...this.#scheduled.values()];
  }

  /** A scheduled change by its proposal id (vetoed or not, in force or not). */
  scheduledChange(id: string): ScheduledChange | undefined {
    return this.#scheduled.get(id);
  }

  /** The clock a read goes by: the caller's, else the latest signed row's time (a change never takes effect early). */
  #clock(now: number | undefined): number {
    return now ?? this.#lastAt;
  }

  get founded(): boolean {
    return this.#foundingId !== null;
  }

  get foundingId(): string | null {
    return this.#foundingId;
  }

  /** Desk keys the founders endorsed (keyId → public key). */
  get deskKeys(): ReadonlyMap<string, string> {
    return this.#deskKeys;
  }

  operators(): RosterOperator[] {
    return [...this.#operators.values()];
  }

  operator(name: string): RosterOperator | undefined {
    return this.#operators.get(lower(name));
  }

  /** How an operator stood just before row `seq` (Infinity: now); undefined when not enrolled by then. */
  at(name: string, seq = Number.POSITIVE_INFINITY): OperatorSnapshot | undefined {
    const operator = this.#operators.get(lower(name));
    if (!operator) return undefined;
    let found: OperatorSnapshot | undefined;
    for (const snapshot of operator.history) {
      if (snapshot.fromSeq < seq) found = snapshot;
      else break;
    }
    return found;
  }

  /** The seq of the row that first enrolled the operator. */
  enrolledAt(name: string): number | undefined {
    return this.#operators.get(lower(name))?.history[0]?.fromSeq;
  }

  /** Operators active just before `seq` whose signature counts, with their snapshot. */
  active(seq = Number.POSITIVE_INFINITY): { name: string; snapshot: OperatorSnapshot }[] {
    const out: { name: string; snapshot: OperatorSnapshot }[] = [];
    for (const operator of this.#operators.values()) {
      const snapshot = this.at(operator.name, seq);
      if (snapshot?.status === 'active') out.push({ name: operator.name, snapshot });
    }
    return out;
  }

  /** Device keys proposed and not yet confirmed. */
  pendingDevices(): PendingDevice[] {
    return [...this.#devices.values()].filter((device) => device.state === 'open');
  }

  pendingDevice(id: string): PendingDevice | undefined {
    return this.#devices.get(id);
  }

  proposals(): Proposal[] {
    return [...this.#proposals.values()];
  }

  openProposals(): Proposal[] {
    return this.proposals().filter((proposal) => proposal.state === 'open');
  }

  proposal(id: string): Proposal | undefined {
    return this.#proposals.get(id);
  }

  /** The policy of a currency in force just before `seq` and at `now` (default: the latest signed row's time), or null for the default. */
  policyAt(currency: string, seq = Number.POSITIVE_INFINITY, now?: number): PolicyInForce | null {
    const clock = this.#clock(now);
    let found: PolicyInForce | null = null;
    for (const policy of this.#policies.get(currency) ?? []) {
      if (policy.fromSeq < seq && inForceAt(policy.effectiveAt, clock)) found = policy;
    }
    return found;
  }

  /**
   * The approval groups with members just before `seq` (Infinity: now) by the clock `now` (a widening waits for the
   * loosening delay; no clock: the latest signed roster row's time), members in lower case (ledger/approval-groups.ts).
   */
  groups(seq = Number.POSITIVE_INFINITY, now?: number): { name: string; members: readonly string[] }[] {
    return this.#groups.all(seq, this.#clock(now));
  }

  /** The approval groups `name` belonged to just before `seq` by the clock `at` (an approval: its signed time). */
  groupsOf(name: string, seq = Number.POSITIVE_INFINITY, at?: number): string[] {
    return this.#groups.of(name, seq, this.#clock(at));
  }

  /** The address-book entry in force at `now` for this address of the chain (EVM in any letter case), if any. */
  bookEntry(chain: string, address: string, now?: number): BookEntryInForce | undefined {
    const entry = this.#book.get(bookKey(chain, address));
    return entry !== undefined && inForceAt(entry.since, this.#clock(now)) ? entry : undefined;
  }

  /** Every address-book entry in force at `now`. */
  bookEntries(now?: number): BookEntryInForce[] {
    const clock = this.#clock(now);
    return [...this.#book.values()].filter((entry) => inForceAt(entry.since, clock));
  }

  /** The payees in force at `now` (issue 21); a payee's addresses are the book entries naming it. */
  payees(now?: number): PayeeInForce[] {
    const clock = this.#clock(now);
    return this.#payees.all().filter((payee) => inForceAt(payee.since, clock));
  }

  /** The payee with this id in force at `now`, if any. */
  payee(id: string, now?: number): PayeeInForce | undefined {
    const payee = this.#payees.get(id);
    return payee !== undefined && inForceAt(payee.since, this.#clock(now)) ? payee : undefined;
  }

  /** The radar clearance in force at `now` for this address (any chain of its format, EVM in any letter case), if any. */
  radarClearance(chain: string, address: string, now?: number): RadarClearanceInForce | undefined {
    const cleared = this.#radarCleared.get(radarKey(chain, address));
    return cleared !== undefined && inForceAt(cleared.since, this.#clock(now)) ? cleared : undefined;
  }

  /**
   * Whether two active admins with disjoint parties exist just before `seq`: only then can one admin's roster or
   * policy change wait for another's, and only then can the desk give four-eyes on admin requests.
   */
  independentAdmins(seq = Number.POSITIVE_INFINITY): boolean {
    const admins = this.active(seq).filter((entry) => entry.snapshot.role === 'admin');
    for (let i = 0; i < admins.length; i += 1) {
      for (let j = i + 1; j < admins.length; j += 1) {
        if (disjoint(admins[i]!.snapshot.party, admins[j]!.snapshot.party)) return true;
      }
    }
    return false;
  }

  // ---- replay -------------------------------------------------------------------------------------------------
  apply(row: ChainRow): void {
    this.#throughSeq = Math.max(this.#throughSeq, row.seq);
    this.#rowAt = row.statement.at;
    this.#lastAt = Math.max(this.#lastAt, row.statement.at);
    const problem = this.#apply(row);
    if (problem !== null) this.problems.push({ seq: row.seq, reason: problem });
  }

  #signedBy(row: ChainRow, publicKey: string): boolean {
    return signatureHolds(publicKey, row);
  }

  /** The signer as an active operator whose current key made the signature, or a reason it is not. */
  #activeSigner(row: ChainRow): { snapshot: OperatorSnapshot; name: string } | string {
    const name = row.statement.operator;
    if (name === null) return 'it is not signed by an operator';
    const snapshot = this.at(name, row.seq);
    if (!snapshot) return `${name} is not enrolled`;
    if (snapshot.status !== 'active') return `${name} is disabled`;
    const publicKey = snapshotKey(snapshot, row.statement.keyId);
    if (publicKey === null) return `${name}'s key is ${snapshot.keyId}, not ${row.statement.keyId}`;
    if (!this.#signedBy(row, publicKey)) return `the signature does not verify with ${name}'s key`;
    return { snapshot, name: this.#operators.get(lower(name))?.name ?? name };
  }

  #push(name: string, snapshot: OperatorSnapshot): void {
    const key = lower(name);
    let operator = this.#operators.get(key);
    if (!operator) {
      operator = { name, history: [] };
      this.#operators.set(key, operator);
    }
    operator.history.push(snapshot);
  }

  #apply(row: ChainRow): string | null {
    const s = row.statement;
    switch (s.kind) {
      case 'found':
        return this.#found(row);
      case 'enrol':
      case 'rekey':
      case 'role':
      case 'disable':
      case 'policy':
      case 'book':
      case 'profile-add':
      case 'profile-remove':
      case 'unfreeze':
      case 'group':
      case 'governance':
      case 'radar-clear':
      case 'payees':
        return this.#propose(row, s.kind);
      case 'veto':
        return this.#veto(row);
      case 'freeze':
        return this.#freeze(row);
      case 'unbook':
        return this.#unbook(row);
      case 'accept':
        return this.#accept(row);
      case 'confirm':
        return this.#confirm(row);
      case 'withdraw-proposal':
        return this.#withdraw(row);
      case 'device':
        return this.#proposeDevice(row);
      default:
        return null;
    }
  }

  #found(row: ChainRow): string | null {
    const s = row.statement;
    if (this.#foundingId !== null) return 'the desk profile is already founded';
    const admins = s.body['admins'];
    const deskKey = s.body['deskKey'];
    if (!Array.isArray(admins) || admins.length < 1 || admins.length > 2) return 'a founding names one or two admins';
    if (s.subject !== canonicalHash(s.body)) return 'the founding subject is not the hash of its body';
    const founders: { name: string; keyId: string; publicKey: string }[] = [];
    for (const admin of admins) {
      const entry = admin as Record<string, CanonicalValue>;
      const name = entry['name'];
      const publicKey = entry['publicKey'];
      if (typeof name !== 'string' || typeof publicKey !== 'string' || importPublicKey(publicKey) === null) return 'a founding admin is malformed';
      founders.push({ name, publicKey, keyId: keyIdOf(publicKey) });
    }
    if (new Set(founders.map((founder) => lower(founder.name))).size !== founders.length) return 'the founding admins must have different names';
    const me = founders.find((founder) => lower(founder.name) === lower(s.operator ?? ''));
    if (!me || me.keyId !== s.keyId || !this.#signedBy(row, me.publicKey)) return 'a founding row must be signed by one of its admins';
    const signed = this.#foundingSignatures.get(s.subject) ?? new Set<string>();
    signed.add(lower(me.name));
    this.#foundingSignatures.set(s.subject, signed);
    if (signed.size < founders.length) return null;
    this.#foundingId = s.subject;
    this.#foundingMerchantId = typeof s.body['merchantId'] === 'string' ? s.body['merchantId'] : null;
    if (deskKey !== null && typeof deskKey === 'object' && !Array.isArray(deskKey)) {
      const publicKey = (deskKey as Record<string, CanonicalValue>)['publicKey'];
      if (typeof publicKey === 'string' && importPublicKey(publicKey) !== null) this.#deskKeys.set(keyIdOf(publicKey), publicKey);
    }
    for (const founder of founders) {
      this.#push(founder.name, {
        fromSeq: row.seq,
        role: 'admin',
        status: 'active',
        keyId: founder.keyId,
        publicKey: founder.publicKey,
        party: [lower(founder.name)],
        founding: true,
        enrolledBy: [],
        devices: [],
      });
    }
    return null;
  }

  #propose(row: ChainRow, kind: ProposalKind): string | null {
    const s = row.statement;
    const signer = this.#activeSigner(row);
    if (typeof signer === 'string') return `proposal refused: ${signer}`;
    // An address-book addition is proposed by anyone who may request withdrawals; the rest by admins.
    if (kind === 'book' || kind === 'payees' ? !roleMay(signer.snapshot.role, 'requestWithdrawal') : signer.snapshot.role !== 'admin') {
      return `proposal refused: ${signer.name} is ${roleWithArticle(signer.snapshot.role)}`;
    }
    const target = kind === 'policy' || kind === 'book' || kind === 'profile-add' || kind === 'profile-remove' || kind === 'unfreeze' || kind === 'group' || kind === 'governance' || kind === 'radar-clear' || kind === 'payees' ? undefined : this.at(s.subject, row.seq);
    switch (kind) {
      case 'enrol':
        if (target?.status === 'active') return `${s.subject} is already enrolled`;
        if (typeof s.body['role'] !== 'string' || !isOperatorRole(s.body['role'])) return 'unknown role';
        break;
      case 'rekey':
      case 'disable':
        if (target?.status !== 'active') return `${s.subject} is not an active operator`;
        break;
      case 'role':
        if (target?.status !== 'active') return `${s.subject} is not an active operator`;
        if (typeof s.body['role'] !== 'string' || !isOperatorRole(s.body['role'])) return 'unknown role';
        break;
      case 'policy':
        if (s.body['policy'] === null || typeof s.body['policy'] !== 'object') return 'the policy is missing';
        break;
      case 'book': {
        const parsed = parseBookSubject(s.subject);
        if (!parsed) return 'an address-book addition names chain:address';
        if (this.#book.has(bookKey(parsed.chain, parsed.address))) return `${s.subject} is already in the address book (or scheduled to be)`;
        if (typeof s.body['payee'] === 'string' && this.#payees.get(s.body['payee']) === undefined) return `there is no payee ${s.body['payee']}`;
        break;
      }
      case 'payees': {
        if (s.subject !== PAYEES_SUBJECT) return `a payees proposal is about "${PAYEES_SUBJECT}"`;
        const problem = this.#payeesProblem(s.body);
        if (problem !== null) return problem;
        break;
      }
      case 'profile-add':
        if (parseProfileAddition(s.subject, s.body) === null) return 'a profile addition names the profile, its merchant ID and one or two founding admins with their public keys';
        break;
      case 'profile-remove':
        if (s.subject !== s.profile) return "a profile removal is proposed by the profile's own admins";
        if (!this.founded) return 'the profile is not founded';
        break;
      case 'unfreeze':
        if (s.subject !== SENDING_SUBJECT) return `a lift of the freeze is about "${SENDING_SUBJECT}"`;
        if (this.frozenAt(s.at) === null) return 'sending is not frozen';
        if ((this.#frozen?.liftAt ?? null) !== null) return 'a lift of the freeze is already scheduled: wait for it, or veto it';
        break;
      case 'group': {
        const problem = this.#groupProblem(s.subject, s.body, row.seq);
        if (problem !== null) return problem;
        break;
      }
      case 'governance': {
        if (s.subject !== GOVERNANCE_SUBJECT) return `a governance setting is about "${GOVERNANCE_SUBJECT}"`;
        const parsed = parseGovernance(s.body['governance']);
        if (typeof parsed === 'string') return parsed;
        break;
      }
      case 'radar-clear': {
        const parsed = parseBookSubject(s.subject);
        if (!parsed) return 'a radar clearance names chain:address';
        if (typeof s.body['looksLike'] !== 'string') return 'a radar clearance names the book entry the address looks like';
        if (this.#radarCleared.has(radarKey(parsed.chain, parsed.address))) return `${s.subject} is already cleared (or scheduled to be)`;
        break;
      }
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
    const proposal: Proposal = {
      id: row.hash,
      seq: row.seq,
      at: s.at,
      kind,
      subject: s.subject,
      body: s.body,
      proposer: signer.name,
      // Under a time-locked lift one admin's unfreeze stands alone: the lock, and any admin's veto, are the second pair of eyes.
      needsConfirmation: kind === 'unfreeze' && this.#governanceNow().freezeLift === 'time-lock' ? false : this.independentAdmins(row.seq),
      accepted: null,
      confirmedBy: null,
      state: 'open',
    };
    this.#proposals.set(proposal.id, proposal);
    if (!proposal.needsConfirmation && kind !== 'enrol' && kind !== 'rekey') this.#applyProposal(proposal, row.seq, null);
    return null;
  }

  #accept(row: ChainRow): string | null {
    const s = row.statement;
    const proposalId = s.body['proposal'];
    const publicKey = s.body['publicKey'];
    if (typeof proposalId !== 'string' || typeof publicKey !== 'string') return 'an acceptance names a proposal and a public key';
    const proposal = this.#proposals.get(proposalId);
    if (!proposal || proposal.state !== 'open' || (proposal.kind !== 'enrol' && proposal.kind !== 'rekey')) return 'no open invitation to accept';
    if (lower(proposal.subject) !== lower(s.subject) || lower(s.operator ?? '') !== lower(s.subject)) return 'the invitation is for another operator';
    if (proposal.accepted !== null) return 'the invitation was already accepted';
    const stale = this.#staleness(proposal, row.seq);
    if (stale) return stale;
    if (keyIdOf(publicKey) !== s.keyId || !this.#signedBy(row, publicKey)) return 'the acceptance is not signed by the key it enrols';
    const codeProblem = acceptCodeProblem(proposal, s.body);
    if (codeProblem) return codeProblem;
    proposal.accepted = { keyId: s.keyId, publicKey, seq: row.seq };
    if (!proposal.needsConfirmation || proposal.confirmedBy !== null) this.#applyProposal(proposal, row.seq, proposal.confirmedBy);
    return null;
  }

  #confirm(row: ChainRow): string | null {
    const s = row.statement;
    const signer = this.#activeSigner(row);
    if (typeof signer === 'string') return `confirmation refused: ${signer}`;
    const proposalId = s.body['proposal'];
    const device = typeof proposalId === 'string' ? this.#devices.get(proposalId) : undefined;
    if (device) return this.#confirmDevice(row, device, signer);
    const proposal = typeof proposalId === 'string' ? this.#proposals.get(proposalId) : undefined;
    // An address-book addition is confirmed by anyone who may approve withdrawals; the rest by admins.
    if (proposal?.kind === 'book' || proposal?.kind === 'payees') {
      if (!roleMay(signer.snapshot.role, 'approveWithdrawal')) return `confirmation refused: ${signer.name} may not approve address-book additions`;
    } else if (signer.snapshot.role !== 'admin') return `confirmation refused: ${signer.name} is not an admin`;
    if (!proposal || proposal.state !== 'open') return 'no open proposal to confirm';
    if (!proposal.needsConfirmation) return 'the proposal needs no confirmation';
    if (proposal.confirmedBy !== null) return 'the proposal was already confirmed';
    const stale = this.#staleness(proposal, row.seq);
    if (stale) return stale;
    const proposer = this.at(proposal.proposer, row.seq);
    if (!proposer || !disjoint(proposer.party, signer.snapshot.party)) return `${signer.name} is not independent of ${proposal.proposer}`;
    if (proposal.kind === 'enrol' || proposal.kind === 'rekey') {
      if (proposal.accepted === null) return 'an invitation is confirmed after the operator accepted it';
      if (s.body['keyId'] !== proposal.accepted.keyId) return 'the confirmation names another key than the one accepted';
    }
    proposal.confirmedBy = signer.name;
    this.#applyProposal(proposal, row.seq, signer.name);
    return null;
  }

  /**
   * Why a proposal no longer applies when it is accepted or confirmed: the roster moved on since it was made (an
   * operator disabled after a re-key was issued must not come back by accepting it).
   */
  #staleness(proposal: Proposal, seq: number): string | null {
    if (proposal.kind === 'policy' || proposal.kind === 'profile-add' || proposal.kind === 'governance') return null;
    if (proposal.kind === 'unfreeze') return this.frozenAt(this.#rowAt) === null || (this.#frozen !== null && this.#frozen.liftAt !== null) ? 'sending is not frozen any more (or its lift is already scheduled)' : null;
    if (proposal.kind === 'group') return this.#groupProblem(proposal.subject, proposal.body, seq);
    if (proposal.kind === 'profile-remove') return this.founded ? null : 'the profile is not founded';
    if (proposal.kind === 'radar-clear') {
      const parsed = parseBookSubject(proposal.subject);
      return parsed && this.#radarCleared.has(radarKey(parsed.chain, parsed.address)) ? `${proposal.subject} is already cleared` : null;
    }
    if (proposal.kind === 'book') {
      const parsed = parseBookSubject(proposal.subject);
      return parsed && this.#book.has(bookKey(parsed.chain, parsed.address)) ? `${proposal.subject} is already in the address book` : null;
    }
    if (proposal.kind === 'payees') return this.#payeesProblem(proposal.body);
    const target = this.at(proposal.subject, seq);
    if (proposal.kind === 'enrol') return target?.status === 'active' ? `${proposal.subject} is already enrolled` : null;
    return target?.status === 'active' ? null : `the proposal no longer applies: ${proposal.subject} is not an active operator`;
  }

  /**
   * A device key for another workstation, proposed by the operator it is for and signed by the new key itself (so it
   * proves nothing yet but possession): it waits for a confirmation.
   */
  #proposeDevice(row: ChainRow): string | null {
    const s = row.statement;
    const workstation = s.body['workstation'];
    const publicKey = s.body['publicKey'];
    if (typeof workstation !== 'string' || workstation.length < 1 || workstation.length > 100 || typeof publicKey !== 'string' || importPublicKey(publicKey) === null) {
      return 'a device key names a workstation and a public key';
    }
    if (lower(s.operator ?? '') !== lower(s.subject)) return 'a device key is proposed by the operator it is for';
    if (keyIdOf(publicKey) !== s.keyId || !this.#signedBy(row, publicKey)) return 'a device key proposal is signed by the key it proposes';
    const snapshot = this.at(s.subject, row.seq);
    if (snapshot?.status !== 'active') return `${s.subject} is not an active operator`;
    if (snapshot.keyId === s.keyId || snapshot.devices.some((device) => device.keyId === s.keyId) || [...this.#devices.values()].some((device) => device.keyId === s.keyId)) {
      return `the key ${s.keyId} is already proposed or in force`;
    }
    const name = this.#operators.get(lower(s.subject))?.name ?? s.subject;
    this.#devices.set(row.hash, { id: row.hash, seq: row.seq, at: s.at, operator: name, workstation, keyId: s.keyId, publicKey, state: 'open' });
    return null;
  }

  /**
   * A device key confirmed by the operator's key in force (from another workstation) or by an admin. An admin's
   * confirmation puts the operator in that admin's party (APPROVALS.md: a key one admin alone vouched for may be theirs).
   */
  #confirmDevice(row: ChainRow, device: PendingDevice, signer: { snapshot: OperatorSnapshot; name: string }): string | null {
    const self = lower(signer.name) === lower(device.operator);
    if (!self && signer.snapshot.role !== 'admin') return `confirmation refused: ${signer.name} is neither ${device.operator} nor an admin`;
    if (device.state !== 'open') return 'the device key was already confirmed';
    if (row.statement.body['keyId'] !== device.keyId) return 'the confirmation names another key than the device key proposed';
    const current = this.at(device.operator, row.seq);
    if (current?.status !== 'active') return `the device key no longer applies: ${device.operator} is not an active operator`;
    if (current.keyId !== this.at(device.operator, device.seq)?.keyId) {
      return `the device key no longer applies: ${device.operator} was re-keyed since it was proposed`;
    }
    device.state = 'applied';
    const devices = [...current.devices.filter((entry) => entry.workstation !== device.workstation), { workstation: device.workstation, keyId: device.keyId, publicKey: device.publicKey, confirmedBy: signer.name }];
    const party = self ? current.party : [...new Set([...current.party, ...signer.snapshot.party])];
    this.#push(device.operator, { ...current, fromSeq: row.seq, devices, party });
    return null;
  }

  #withdraw(row: ChainRow): string | null {
    const signer = this.#activeSigner(row);
    if (typeof signer === 'string') return `withdrawal refused: ${signer}`;
    if (signer.snapshot.role !== 'admin') return `withdrawal refused: ${signer.name} is not an admin`;
    const proposalId = row.statement.body['proposal'];
    const proposal = typeof proposalId === 'string' ? this.#proposals.get(proposalId) : undefined;
    if (!proposal || proposal.state !== 'open') return 'no open proposal to withdraw';
    // Only its proposer, and never the operator a disabling or role change is about (proposal-withdrawal.ts).
    const refused = proposalWithdrawalProblem(proposal, signer.name);
    if (refused !== null) return `withdrawal refused: ${refused}`;
    proposal.state = 'withdrawn';
    return null;
  }

  /** Why a group change does not hold just before `seq`: a malformed list, a member not active, or no change at all. */
  #groupProblem(subject: string, body: Readonly<Record<string, CanonicalValue>>, seq: number): string | null {
    const members = groupMembersOf(subject, body);
    if (typeof members === 'string') return members;
    const inactive = members.find((member) => this.at(member, seq)?.status !== 'active');
    if (inactive !== undefined) return `${inactive} is not an active operator: a group's members are enrolled operators`;
    const current = this.#groups.members(subject, seq, Number.POSITIVE_INFINITY);
    if (current.join('\n') === members.join('\n')) return members.length === 0 ? `there is no group ${subject} to dissolve` : `group ${subject} already has exactly these members`;
    return null;
  }

  /** A freeze of all sending: by one active admin, at once (it only restricts); lifting it is a four-eyes `unfreeze`. */
  #freeze(row: ChainRow): string | null {
    const signer = this.#activeSigner(row);
    if (typeof signer === 'string') return `freeze refused: ${signer}`;
    if (signer.snapshot.role !== 'admin') return `freeze refused: ${signer.name} is not an admin`;
    if (row.statement.subject !== SENDING_SUBJECT) return `a freeze is about "${SENDING_SUBJECT}"`;
    const frozen = this.frozenAt(row.statement.at);
    if (frozen !== null) return `sending is already frozen (by ${frozen.by})${frozen.liftAt === null ? '' : ': its lift is scheduled, veto it (roster veto) to keep it'}`;
    const reason = row.statement.body['reason'];
    if (typeof reason !== 'string' || reason === '') return 'a freeze says why';
    this.#frozen = { by: signer.name, since: row.statement.at, seq: row.seq, reason, liftAt: null, liftId: null };
    return null;
  }

  /** Why a `payees` body cannot be applied to the roster as it stands (unreadable, an id or name taken, an address booked), or null. */
  #payeesProblem(body: Readonly<Record<string, CanonicalValue>>): string | null {
    const payees = parsePayees(body);
    return typeof payees === 'string' ? payees : this.#payees.problem(payees, (chain, address) => this.#book.has(bookKey(chain, address)));
  }

  /** A removal from the address book: by anyone who may request withdrawals; it takes effect at once (it only restricts). */
  #unbook(row: ChainRow): string | null {
    const signer = this.#activeSigner(row);
    if (typeof signer === 'string') return `removal refused: ${signer}`;
    if (!roleMay(signer.snapshot.role, 'requestWithdrawal')) return `removal refused: ${signer.name} may not change the address book`;
    const parsed = parseBookSubject(row.statement.subject);
    if (!parsed) return 'a removal names chain:address';
    const key = bookKey(parsed.chain, parsed.address);
    if (!this.#book.has(key)) return `${row.statement.subject} is not in the address book`;
    this.#book.delete(key);
    return null;
  }

  /** The governance in force at the row being applied. */
  #governanceNow(): Governance {
    return this.governanceAt(this.#rowAt)?.governance ?? DEFAULT_GOVERNANCE;
  }

  /**
   * When a change applied by the current row takes effect: at once when it does not loosen, else after the delay the
   * governance in force sets (a time-locked lift: after the lock). A delayed change is recorded as scheduled, for a veto.
   */
  #effectiveAt(proposal: Proposal, confirmer: string | null): number {
    const governance = this.#governanceNow();
    let loosens: string[];
    let hours = governance.looseningDelayHours;
    switch (proposal.kind) {
      case 'policy':
        loosens = policyLoosens(this.policyAt(proposal.subject, Number.POSITIVE_INFINITY, this.#rowAt)?.policy ?? null, proposal.body['policy'] as Readonly<Record<string, CanonicalValue>>);
        break;
      case 'book':
        loosens = [`${proposal.subject} added to the address book`];
        break;
      case 'unfreeze':
        loosens = ['the freeze on sending lifted'];
        if (governance.freezeLift === 'time-lock' && confirmer === null) hours = governance.freezeLockHours;
        break;
      case 'governance': {
        const after = parseGovernance(proposal.body['governance']);
        loosens = typeof after === 'string' ? ['an unreadable governance setting'] : governanceLoosens(governance, after);
        break;
      }
      case 'payees': {
        const payees = parsePayees(proposal.body);
        loosens = typeof payees === 'string' ? [] : payees.flatMap((payee) => payee.addresses.map(({ chain, address }) => `${chain}:${address} added to the address book for payee ${payee.name}`));
        break;
      }
      case 'radar-clear':
        loosens = [`${proposal.subject}, flagged as a likely poisoning address, cleared to be paid`];
        break;
      case 'group': {
        // A group widened (a member added) lets more people meet a tier: loosening. Removing members tightens.
        const after = groupMembersOf(proposal.subject, proposal.body);
        const before = this.#groups.members(proposal.subject, Number.POSITIVE_INFINITY, this.#rowAt);
        loosens = typeof after === 'string' ? [] : after.filter((member) => !before.includes(member)).map((member) => `${member} added to approval group ${proposal.subject}`);
        break;
      }
      default:
        return this.#rowAt;
    }
    if (loosens.length === 0 || hours <= 0) return this.#rowAt;
    const effectiveAt = this.#rowAt + hours * HOUR_MS;
    this.#scheduled.set(proposal.id, {
      id: proposal.id,
      kind: proposal.kind,
      subject: proposal.subject,
      proposer: proposal.proposer,
      confirmedBy: confirmer,
      appliedAt: this.#rowAt,
      effectiveAt,
      loosens,
      vetoedBy: null,
      vetoedAt: null,
      vetoReason: null,
    });
    return effectiveAt;
  }

  /**
   * A veto: any one active admin cancels a scheduled loosening change before it takes effect (by the veto's signed
   * time); it never takes effect. A veto of a change already in force, or of one never scheduled, is refused, named.
   */
  #veto(row: ChainRow): string | null {
    const signer = this.#activeSigner(row);
    if (typeof signer === 'string') return `veto refused: ${signer}`;
    if (signer.snapshot.role !== 'admin') return `veto refused: ${signer.name} is not an admin`;
    const change = this.#scheduled.get(row.statement.subject);
    if (!change) return 'no scheduled change to veto: only a loosening change waiting for its delay can be vetoed';
    if (change.vetoedBy !== null) return `the change was already vetoed by ${change.vetoedBy}`;
    if (inForceAt(change.effectiveAt, row.statement.at)) {
      return `veto refused: the change took effect at ${new Date(change.effectiveAt).toISOString()}; to undo it, propose the change back`;
    }
    change.vetoedBy = signer.name;
    change.vetoedAt = row.statement.at;
    change.vetoReason = typeof row.statement.body['reason'] === 'string' ? row.statement.body['reason'] : null;
    switch (change.kind) {
      case 'policy': {
        const list = this.#policies.get(change.subject) ?? [];
        this.#policies.set(change.subject, list.filter((policy) => policy.id !== change.id));
        return null;
      }
      case 'book': {
        const parsed = parseBookSubject(change.subject);
        const key = parsed ? bookKey(parsed.chain, parsed.address) : '';
        if (this.#book.get(key)?.id === change.id) this.#book.delete(key);
        return null;
      }
      case 'unfreeze':
        if (this.#frozen?.liftId === change.id) this.#frozen = { ...this.#frozen, liftAt: null, liftId: null };
        return null;
      case 'governance': {
        const index = this.#governance.findIndex((entry) => entry.id === change.id);
        if (index >= 0) this.#governance.splice(index, 1);
        return null;
      }
      case 'group':
        this.#groups.veto(change.subject, change.id);
        return null;
      case 'radar-clear': {
        const parsed = parseBookSubject(change.subject);
        const key = parsed ? radarKey(parsed.chain, parsed.address) : '';
        if (this.#radarCleared.get(key)?.id === change.id) this.#radarCleared.delete(key);
        return null;
      }
      case 'payees':
        this.#payees.veto(change.id);
        for (const [key, entry] of this.#book) if (entry.id === change.id) this.#book.delete(key);
        return null;
      default:
        return 'no scheduled change of that kind can be vetoed';
    }
  }

  #applyProposal(proposal: Proposal, seq: number, confirmer: string | null): void {
    proposal.state = 'applied';
    const effectiveAt = this.#effectiveAt(proposal, confirmer);
    const proposer = this.at(proposal.proposer, seq);
    const alone = confirmer === null;
    const current = proposal.kind === 'enrol' || proposal.kind === 'rekey' || proposal.kind === 'role' || proposal.kind === 'disable' ? this.at(proposal.subject, seq + 1) : undefined;
    switch (proposal.kind) {
      case 'enrol':
      case 'rekey': {
        const accepted = proposal.accepted;
        if (!accepted) return;
        const role = proposal.kind === 'enrol' ? (proposal.body['role'] as OperatorRole) : (current?.role ?? 'viewer');
        const self = lower(proposal.subject);
        const party = alone ? [...new Set([self, ...(proposer?.party ?? [lower(proposal.proposer)])])] : [self];
        this.#push(proposal.subject, {
          fromSeq: seq,
          role,
          status: 'active',
          keyId: accepted.keyId,
          publicKey: accepted.publicKey,
          party,
          founding: false,
          enrolledBy: alone ? [proposal.proposer] : [proposal.proposer, confirmer],
          // A new key replaces every device key: each workstation enrols one again.
          devices: [],
        });
        return;
      }
      case 'role':
        if (current) this.#push(proposal.subject, { ...current, fromSeq: seq, role: proposal.body['role'] as OperatorRole });
        return;
      case 'disable':
        if (current) this.#push(proposal.subject, { ...current, fromSeq: seq, status: 'disabled' });
        return;
      case 'policy': {
        const list = this.#policies.get(proposal.subject) ?? [];
        list.push({ id: proposal.id, fromSeq: seq, effectiveAt, policy: proposal.body['policy'] as Readonly<Record<string, CanonicalValue>> });
        this.#policies.set(proposal.subject, list);
        return;
      }
      case 'book': {
        const parsed = parseBookSubject(proposal.subject);
        if (!parsed) return;
        this.#book.set(bookKey(parsed.chain, parsed.address), {
          subject: proposal.subject,
          ...parsed,
          id: proposal.id,
          proposer: proposal.proposer,
          confirmedBy: confirmer,
          fromSeq: seq,
          since: effectiveAt,
          payee: typeof proposal.body['payee'] === 'string' ? proposal.body['payee'] : null,
        });
        return;
      }
      case 'payees': {
        const payees = parsePayees(proposal.body);
        if (typeof payees === 'string') return;
        this.#payees.add(payees, { id: proposal.id, proposer: proposal.proposer, confirmedBy: confirmer, since: effectiveAt });
        for (const payee of payees) {
          for (const { chain, address } of payee.addresses) {
            this.#book.set(bookKey(chain, address), { subject: `${chain}:${address}`, chain, address, id: proposal.id, proposer: proposal.proposer, confirmedBy: confirmer, fromSeq: seq, since: effectiveAt, payee: payee.id });
          }
        }
        return;
      }
      case 'profile-add': {
        const addition = parseProfileAddition(proposal.subject, proposal.body);
        if (addition) this.#additions.push({ id: proposal.id, ...addition, fromSeq: seq });
        return;
      }
      case 'profile-remove':
        this.#ended = true;
        return;
      case 'unfreeze':
        if (effectiveAt === this.#rowAt) this.#frozen = null;
        else if (this.#frozen !== null) this.#frozen = { ...this.#frozen, liftAt: effectiveAt, liftId: proposal.id };
        return;
      case 'group': {
        const members = groupMembersOf(proposal.subject, proposal.body);
        if (typeof members !== 'string') this.#groups.set(proposal.subject, members, seq, effectiveAt, proposal.id);
        return;
      }
      case 'governance': {
        const governance = parseGovernance(proposal.body['governance']);
        if (typeof governance !== 'string') this.#governance.push({ id: proposal.id, fromSeq: seq, effectiveAt, governance });
        return;
      }
      case 'radar-clear': {
        const parsed = parseBookSubject(proposal.subject);
        if (!parsed) return;
        const looksLike = proposal.body['looksLike'];
        this.#radarCleared.set(radarKey(parsed.chain, parsed.address), {
          subject: proposal.subject,
          looksLike: typeof looksLike === 'string' ? looksLike : '',
          id: proposal.id,
          proposer: proposal.proposer,
          confirmedBy: confirmer,
          since: effectiveAt,
        });
        return;
      }
      default: {
        const unreachable: never = proposal.kind;
        return unreachable;
      }
    }
  }
}

/** A `profile-add` proposal's subject and body as an addition (without id and seq), or null when malformed. */
export function parseProfileAddition(subject: string, body: Readonly<Record<string, CanonicalValue>>): Omit<ProfileAddition, 'id' | 'fromSeq'> | null {
  const merchantId = body['merchantId'];
  const admins = body['admins'];
  if (subject === '' || typeof merchantId !== 'string' || merchantId === '' || !Array.isArray(admins) || admins.length < 1 || admins.length > 2) return null;
  const parsed: { name: string; publicKey: string }[] = [];
  for (const admin of admins) {
    if (admin === null || typeof admin !== 'object' || Array.isArray(admin)) return null;
    const { name, publicKey } = admin as Record<string, CanonicalValue>;
    if (typeof name !== 'string' || typeof publicKey !== 'string' || importPublicKey(publicKey) === null) return null;
    parsed.push({ name, publicKey });
  }
  if (new Set(parsed.map((admin) => lower(admin.name))).size !== parsed.length) return null;
  return { profile: subject, merchantId, admins: parsed };
}

export function disjoint(a: readonly string[], b: readonly string[]): boolean {
  return !a.some((name) => b.includes(name));
}

/**
 * The largest number of approvers whose parties are disjoint from the initiator's and from each other (APPROVALS.md
 * "Four-eyes"). Parties are tiny, so an exhaustive search over the (few) approvals is exact and cheap.
 */
export function countIndependentApprovals(initiatorParty: readonly string[], approverParties: readonly (readonly string[])[]): number {
  const eligible = approverParties.filter((party) => disjoint(party, initiatorParty));
  let best = 0;
  const search = (index: number, used: readonly string[], count: number): void => {
    if (count + (eligible.length - index) <= best) return;
    if (index === eligible.length) {
      best = Math.max(best, count);
      return;
    }
    const party = eligible[index]!;
    if (disjoint(party, used)) search(index + 1, [...used, ...party], count + 1);
    search(index + 1, used, count);
  };
  search(0, [], 0);
  return best;
}
