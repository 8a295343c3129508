// The connection panel (issue 13, part 5) as the faces see it: one answer gathering whether the connection can be
// trusted: where it goes and for whom, the session token's age and estimated expiry (never the token), the clock drift
// over time, both keys' fingerprints, the last whitelist refusal and each resource's sync freshness. Times are ms.
import type { ConnectionState, SyncResourceState } from './dto';

/** The session token's lifetime as the desk saw it (PROTOCOL §6.3: sliding 8 h, at most 24 h after issue). */
export interface TokenLifetimeView {
  readonly issuedAt: number;
  /** The last successful request made with it; null before the first. */
  readonly lastAcceptedAt: number | null;
  /** An estimate from §6.3: the service does not say, and another desk's use of its own token does not move it. */
  readonly expiresAt: number;
}

/** Where a drift measurement came from: a selfcheck's serverTime, or a verified answer's timestamp. */
export type ClockDriftSourceName = 'selfcheck' | 'response';

export interface ClockDriftReadingView {
  readonly measuredAt: number;
  /** Server time minus this computer's, whole seconds (positive: this computer's clock is behind). */
  readonly driftSeconds: number;
  readonly source: ClockDriftSourceName;
}

/** The last `Oops` (PROTOCOL §5.3): the service refused this workstation's IP address. */
export interface WhitelistRefusalView {
  readonly refusedAt: number;
  /** The operation refused, e.g. getToken or merchantInfo. */
  readonly endpoint: string;
}

export interface ConnectionPanelView {
  readonly profile: string;
  readonly baseUrl: string;
  readonly merchantId: string;
  /** From the last merchantInfo answer; null before it ever answered. */
  readonly merchantName: string | null;
  readonly apiVersion: number | null;
  readonly merchantInfoAt: number | null;
  readonly connection: ConnectionState;
  /** Null while this run holds no token (none asked for yet, or the last one expired or was refused). */
  readonly token: TokenLifetimeView | null;
  /** Oldest first; the desk keeps the newest 500. */
  readonly clockDrift: readonly ClockDriftReadingView[];
  /** SHA-256 of the key's DER SPKI as hex pairs; null when the credentials cannot be read. */
  readonly platformKeyFingerprint: string | null;
  /** Of the public half of the merchant private key (the key itself never leaves the engine). */
  readonly merchantKeyFingerprint: string | null;
  readonly lastWhitelistRefusal: WhitelistRefusalView | null;
  readonly sync: readonly SyncResourceState[];
}
