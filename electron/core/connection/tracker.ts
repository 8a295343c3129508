// Why the service cannot be reached: classifies protocol failures into the offline reasons the desk shows
// (network, IP not whitelisted, clock drift, credentials, service), and tracks since when.
import type { ConnectionState, OfflineReason } from '../../contract';
import { ProtocolError, ResponseVerificationError, ServiceError, TransportError } from '../../protocol/errors';
import { TIMESTAMP_WINDOW_SECONDS } from '../../protocol/profile';

export interface OfflineDiagnosis {
  readonly reason: OfflineReason;
  readonly message: string;
}

/**
 * Maps a failure to an offline reason, or undefined when the failure says nothing about reachability (bad
 * input, a business refusal such as insufficientBalance). `clockDriftSeconds` comes from the last selfcheck.
 */
export function diagnoseFailure(error: unknown, clockDriftSeconds: number | null): OfflineDiagnosis | undefined {
  if (!(error instanceof ProtocolError)) return undefined;
  const driftTooLarge = clockDriftSeconds !== null && Math.abs(clockDriftSeconds) > TIMESTAMP_WINDOW_SECONDS;
  const clockMessage = (drift: number | null): string =>
    drift === null
      ? "this computer's clock seems to differ from the service's by more than 5 minutes: correct the system time (enable automatic time sync)"
      : `this computer's clock is ${Math.abs(drift)} s ${drift > 0 ? 'behind' : 'ahead of'} the service (the limit is ${TIMESTAMP_WINDOW_SECONDS} s): correct the system time (enable automatic time sync)`;
  switch (error.kind) {
    case 'transport':
      // An HTTP status is an answer: the service is reachable and failing (a 503 from one endpoint is not "offline").
      if (error instanceof TransportError && error.httpStatus !== undefined) {
        return { reason: 'service', message: `the service answered HTTP ${error.httpStatus} to ${error.endpoint}: it is reachable but failing; the desk tries again at the next sync (ask the platform if it lasts)` };
      }
      return { reason: 'network', message: `the service cannot be reached: ${error.message}. Check the network connection.` };
    case 'notWhitelisted':
      return { reason: 'notWhitelisted', message: error.message };
    case 'responseVerification':
      if (error instanceof ResponseVerificationError && error.failure === 'staleTimestamp') return { reason: 'clockDrift', message: clockMessage(clockDriftSeconds) };
      return { reason: 'service', message: `a response from the service failed verification and was discarded: ${error.message}` };
    case 'service': {
      const reason = error instanceof ServiceError ? error.reason : '';
      if (reason === 'signatureFailed') {
        return driftTooLarge
          ? { reason: 'clockDrift', message: clockMessage(clockDriftSeconds) }
          : { reason: 'credentials', message: 'the service refused our signature: check the merchant private key registered with the platform (and the system clock).' };
      }
      if (reason === 'authFailed') return { reason: 'credentials', message: 'the service refused the merchant ID or secret (authFailed): re-enter the credentials.' };
      if (reason === 'decryptFailed') return { reason: 'credentials', message: 'the service could not decrypt our requests: check the platform public key.' };
      if (reason === 'apiVersionNotEnabled') {
        return { reason: 'service', message: 'the account is still on protocol version 1: pass selfcheck, then ask the platform staff to switch it to version 2.' };
      }
      return undefined;
    }
    case 'requestTooLarge':
    case 'invalidArgument':
    case 'keyFormat':
    case 'cipher':
    case 'rateLimited':
      return undefined;
    default: {
      const unreachable: never = error.kind;
      return unreachable;
    }
  }
}

/** Holds the desk's view of the connection; `since` keeps the first moment of the current offline reason. */
export class ConnectionTracker {
  private state: ConnectionState = { online: true, reason: null, message: null, since: null, lastContactAt: null };

  constructor(private readonly now: () => number) {}

  get current(): ConnectionState {
    return this.state;
  }

  /** A verified answer arrived: online. Returns true when the state changed. */
  markOnline(): boolean {
    const changed = !this.state.online;
    this.state = { online: true, reason: null, message: null, since: null, lastContactAt: this.now() };
    return changed;
  }

  markOffline(diagnosis: OfflineDiagnosis): boolean {
    const sameReason = !this.state.online && this.state.reason === diagnosis.reason;
    const changed = !sameReason || this.state.message !== diagnosis.message;
    this.state = {
      online: false,
      reason: diagnosis.reason,
      message: diagnosis.message,
      since: sameReason ? this.state.since : this.now(),
      lastContactAt: this.state.lastContactAt,
    };
    return changed;
  }
}
