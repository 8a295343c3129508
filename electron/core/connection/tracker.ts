// Why the service cannot be reached: classifies protocol failures into the offline reasons the desk shows
// (network, IP not whitelisted, clock drift, credentials, service), and tracks since when.
import { connectionSentence, type ConnectionCause, type ConnectionState, type ContractErrorCode, type OfflineReason } from '../../contract';
import { NotWhitelistedError, ProtocolError, ResponseVerificationError, ServiceError, TransportError } from '../../protocol/errors';
import { TIMESTAMP_WINDOW_SECONDS } from '../../protocol/profile';

export interface OfflineDiagnosis {
  readonly reason: OfflineReason;
  /** The cause in English, as the CLI and the log say it. */
  readonly message: string;
  /** The cause as a code and values, for a window to say in its own language; absent when only a message is known. */
  readonly cause?: ConnectionCause;
}

/** The contract's error code of a failure diagnosed with each offline reason (a window's headline for it). */
export const OFFLINE_REASON_ERROR_CODES: Readonly<Record<OfflineReason, ContractErrorCode>> = {
  network: 'offline',
  notWhitelisted: 'notWhitelisted',
  clockDrift: 'clockDrift',
  credentials: 'credentials',
  service: 'service',
};

function diagnosis(reason: OfflineReason, cause: ConnectionCause): OfflineDiagnosis {
  return { reason, message: connectionSentence(cause), cause };
}

/**
 * Maps a failure to an offline reason, or undefined when the failure says nothing about reachability (bad
 * input, a business refusal such as insufficientBalance). `clockDriftSeconds` comes from the last selfcheck.
 */
export function diagnoseFailure(error: unknown, clockDriftSeconds: number | null): OfflineDiagnosis | undefined {
  if (!(error instanceof ProtocolError)) return undefined;
  const driftTooLarge = clockDriftSeconds !== null && Math.abs(clockDriftSeconds) > TIMESTAMP_WINDOW_SECONDS;
  const clock = (): OfflineDiagnosis =>
    diagnosis(
      'clockDrift',
      clockDriftSeconds === null ? { code: 'clockUnmeasured' } : { code: 'clockDrift', driftSeconds: clockDriftSeconds, limitSeconds: TIMESTAMP_WINDOW_SECONDS },
    );
  switch (error.kind) {
    case 'transport':
      // An HTTP status is an answer: the service is reachable and failing (a 503 from one endpoint is not "offline").
      if (error instanceof TransportError && error.httpStatus !== undefined) {
        return diagnosis('service', { code: 'serviceFailing', httpStatus: error.httpStatus, endpoint: error.endpoint });
      }
      return diagnosis('network', { code: 'unreachable', detail: error.message });
    case 'notWhitelisted':
      return error instanceof NotWhitelistedError
        ? diagnosis('notWhitelisted', { code: 'notWhitelisted', endpoint: error.endpoint })
        : { reason: 'notWhitelisted', message: error.message };
    case 'responseVerification':
      if (error instanceof ResponseVerificationError && error.failure === 'staleTimestamp') return clock();
      return diagnosis('service', { code: 'responseRefused', detail: error.message });
    case 'service': {
      const reason = error instanceof ServiceError ? error.reason : '';
      if (reason === 'signatureFailed') return driftTooLarge ? clock() : diagnosis('credentials', { code: 'signatureRefused' });
      if (reason === 'authFailed') return diagnosis('credentials', { code: 'authRefused' });
      if (reason === 'decryptFailed') return diagnosis('credentials', { code: 'decryptRefused' });
      if (reason === 'apiVersionNotEnabled') return diagnosis('service', { code: 'apiVersion1' });
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
      ...(diagnosis.cause === undefined ? {} : { cause: diagnosis.cause }),
      message: diagnosis.message,
      since: sameReason ? this.state.since : this.now(),
      lastContactAt: this.state.lastContactAt,
    };
    return changed;
  }
}
