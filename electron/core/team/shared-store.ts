// The team desk's shared store: the interface both backends (PostgreSQL for a team, SQLite for one workstation and
// the shared test suite) implement, its typed refusals, and the database URL redaction. Nothing a store returns is
// trusted: every chain row and projection row is checked by the workstation against the statements it verified.
import type { AuditRow } from '../audit';
import type { SignedHeadAck } from '../ledger';
import { withHostList } from './pg-hosts';

/** One signed audit row exactly as the local audit_log holds it (seq and prev are inside the signed statement). */
export type SharedChainRow = AuditRow;

/** The last row of the shared chain. */
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

/** The projection tables: for IT's queries and fast listing; a workstation checks every row it reads. */
export const PROJECTION_TABLES = [
  'withdrawal_requests',
  'approvals',
  'order_statuses',
  'operators',
  'workstations',
  'payout_batches',
  'address_book',
  'labels',
] as const;
export type ProjectionTable = (typeof PROJECTION_TABLES)[number];

export type ProjectionValue = string | number | boolean | null;

/** A projection row written together with an append (an upsert by table and key). */
export interface ProjectionWrite {
  readonly table: ProjectionTable;
  /** e.g. the userOrder, `${userOrder}/${operator}`, the operator name; at most 200 characters. */
  readonly key: string;
  readonly row: Readonly<Record<string, ProjectionValue>>;
}

/** A projection row as read back: `rowId` is the database's id for the row, for naming it in a refusal. */
export interface ProjectionRow extends ProjectionWrite {
  readonly rowId: number;
}

export interface ProjectionQuery {
  /** The `nextCursor` of the previous page (rows come in ascending key order). */
  readonly after?: string | null;
  /** 1 to MAX_PROJECTION_PAGE. */
  readonly limit: number;
  /**
   * Equality on the row's TEXT fields (a number, boolean or null field never matches); several fields all must
   * match. Indexed (fast at 10,000 requests): withdrawal_requests.state and .profile, approvals.userOrder,
   * order_statuses.userOrder.
   */
  readonly where?: Readonly<Record<string, string>>;
}

export interface ProjectionPage {
  readonly rows: readonly ProjectionRow[];
  /** Pass as `after` for the next page; null when this page is the last. */
  readonly nextCursor: string | null;
}

export const MAX_PROJECTION_PAGE = 1000;

export type AppendOutcome = { readonly appended: true; readonly head: ChainHead } | { readonly appended: false; readonly head: ChainHead | null };

export type ClaimState = 'claimed' | 'sent' | 'unknown' | 'done';

/** Who is submitting a request (keyed by the intent's userOrder, never a new one) and until when (epoch ms). */
export interface SubmissionClaim {
  readonly userOrder: string;
  readonly workstation: string;
  /** Epoch ms on the database's clock; past it, another workstation may take the claim over. */
  readonly leaseUntil: number;
  readonly state: ClaimState;
  readonly result: string | null;
}

export type ClaimOutcome =
  | {
      readonly claimed: true;
      readonly claim: SubmissionClaim;
      /** The expired claim this one replaced: if its state was 'sent' or 'unknown', resolve with checkWithdrawOrder first. */
      readonly tookOverFrom: SubmissionClaim | null;
    }
  /** A live lease of another workstation, or a 'done' claim (its result says how it ended). */
  | { readonly claimed: false; readonly heldBy: SubmissionClaim };

export interface ClaimChange {
  readonly state: ClaimState;
  readonly result?: string | null;
  /** Renews the lease to now + leaseMs (database clock); omitted: the lease is kept as it is. */
  readonly leaseMs?: number;
}

/** The team database's own identity (not the workstation's desk key: that is core/audit/desk-identity). */
export interface SharedDeskIdentity {
  readonly deskId: string;
  readonly schemaVersion: number;
  /** Epoch ms, as passed to initialise. */
  readonly createdAt: number;
}

export interface ConnectionState {
  readonly connected: boolean;
  /** Why the connection is down (never holds the password); null while connected. */
  readonly reason: string | null;
  /** Epoch ms since which the state holds. */
  readonly since: number;
}

/** A workstation's request for fresh head acknowledgements (witnessed sends, team/witness.ts). */
export interface WitnessRequest {
  /** The database's id for the request (ascending): answerers read the requests after the last one they saw. */
  readonly id: number;
  /** 32 lowercase hex digits, fresh per request: every answer's signed ack is bound to it. */
  readonly nonce: string;
  /** The workstation asking (it does not answer itself). */
  readonly workstation: string;
}

/** What the witness channel tells a subscriber: a new request to answer, or an ack posted for a nonce. */
export type WitnessSignal = { readonly kind: 'request' } | { readonly kind: 'ack'; readonly nonce: string };

export interface SharedDeskStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Where the store lives, safe to show: a file path, or the URL without its password. */
  readonly location: string;
  /** null: an empty (uninitialised) database. Refuses (SharedStoreError 'newerSchema') a newer schema. */
  identity(): Promise<SharedDeskIdentity | null>;
  /**
   * Creates the schema (migrating an older one) and records the desk; idempotent for the same desk. Refuses
   * ('otherDesk') a database of another desk, and ('notEmpty') a chain without an identity.
   */
  initialise(deskId: string, now: number): Promise<void>;
  head(): Promise<ChainHead | null>;
  /** Rows with seq > `seq`, ascending, at most `limit` (1 to MAX_CHAIN_PAGE). */
  rowsAfter(seq: number, limit: number): Promise<SharedChainRow[]>;
  /**
   * Appends consecutive rows extending `expectedHead` (null: the chain is empty) and upserts the projections, in ONE
   * transaction that also notifies subscribers. When the head has moved: { appended: false, head } and nothing
   * written. Rows that do not chain onto expectedHead are refused ('invalidArgument').
   */
  append(rows: readonly SharedChainRow[], projections: readonly ProjectionWrite[], expectedHead: ChainHead | null): Promise<AppendOutcome>;
  projection(table: ProjectionTable, query: ProjectionQuery): Promise<ProjectionPage>;
  /** Inserts a claim, renews this workstation's own, or takes over an expired lease (not a 'done' claim). */
  claimSubmission(userOrder: string, workstation: string, leaseMs: number): Promise<ClaimOutcome>;
  /** Changes this workstation's claim; false when the claim is not (or no longer) this workstation's. */
  updateClaim(userOrder: string, workstation: string, change: ClaimChange): Promise<boolean>;
  getClaim(userOrder: string): Promise<SubmissionClaim | null>;
  /** Records a witness request (a new row) and tells every witness subscriber. */
  requestWitness(nonce: string, workstation: string): Promise<WitnessRequest>;
  /** Witness requests after id `afterId` posted within the last `maxAgeMs` (database clock), oldest first, at most 100. */
  witnessRequests(afterId: number, maxAgeMs: number): Promise<WitnessRequest[]>;
  /** Appends a signed head ack (always a new row: an ack is never updated) and tells every witness subscriber. */
  appendHeadAck(ack: SignedHeadAck): Promise<void>;
  /**
   * The newest ack of each workstation (by the order they were appended), only acks bound to `nonce` when given.
   * Nothing here is trusted: the caller verifies each against the desk key its verified chain enrolled.
   */
  headAcks(nonce?: string): Promise<SignedHeadAck[]>;
  /**
   * Calls `onAppended(lastSeq)` after each append (any workstation); reports the connection going down (with the
   * reason and since when) and coming back, and after coming back calls `onAppended(head seq)` so the caller
   * catches up by seq. `onWitness` hears witness requests and acks (after coming back: a 'request', so pending ones
   * are read). Resolves once listening; the returned function stops listening.
   */
  subscribe(
    onAppended: (seq: number) => void,
    onConnectionChange: (state: ConnectionState) => void,
    onWitness?: (signal: WitnessSignal) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const MAX_CHAIN_PAGE = 1000;
export const MAX_PROJECTION_KEY_LENGTH = 200;

export type SharedStoreErrorKind =
  /** The URL is not a postgres:// URL we can use. */
  | 'badUrl'
  /** The server cannot be reached (refused, unknown host, timeout, connection lost). */
  | 'unreachable'
  /** The role or password was refused, or the role lacks a privilege the desk needs. */
  | 'authentication'
  /** TLS could not be set up or the server's certificate was refused. */
  | 'tls'
  /** The database holds another desk. */
  | 'otherDesk'
  /** The database holds desk rows but no identity: not ours to take over. */
  | 'notEmpty'
  /** The database was created by a newer Treasury Desk. */
  | 'newerSchema'
  /** initialise() has not been run on this database. */
  | 'notInitialised'
  /** A caller passed something the store cannot keep. */
  | 'invalidArgument';

/** A refusal of the shared store; its message says what to do and never holds the database password. */
export class SharedStoreError extends Error {
  override readonly name = 'SharedStoreError';
  constructor(
    readonly kind: SharedStoreErrorKind,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** The URL with its password (in the authority or a `password` parameter) replaced by `***`: what may be shown. */
export function redactDatabaseUrl(url: string): string {
  try {
    return withHostList(url, (parsed, restore) => {
      if (parsed.password !== '') parsed.password = '***';
      if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
      return restore(parsed.toString());
    });
  } catch {
    return '(a database URL that could not be read)';
  }
}

/** The URL without its password, for keeping in settings (the password goes to the keychain). */
export function urlWithoutPassword(url: string): string {
  return withHostList(url, (parsed, restore) => {
    parsed.password = '';
    parsed.searchParams.delete('password');
    return restore(parsed.toString());
  });
}
