// Every error the protocol layer raises, as typed classes from one module. Messages never contain key material,
// secrets or tokens: they say what happened and what to do.
import { SERVICE_ERROR_MESSAGES, type KnownServiceErrorMessage } from './profile';

export type ProtocolErrorKind =
  | 'service'
  | 'notWhitelisted'
  | 'responseVerification'
  | 'transport'
  | 'requestTooLarge'
  | 'invalidArgument'
  | 'keyFormat'
  | 'cipher'
  | 'rateLimited';

/** Base class: `kind` lets callers switch exhaustively without instanceof chains. */
export abstract class ProtocolError extends Error {
  abstract readonly kind: ProtocolErrorKind;
}

/** A raw envelope as received; kept on service errors for support diagnostics. Contains no secret. */
export interface RawEnvelope {
  readonly code: number;
  readonly data: string;
  readonly message: string;
}

/** The service answered code 9999. `reason` is the typed message, or the verbatim text when unknown (§7). */
export class ServiceError extends ProtocolError {
  readonly kind = 'service' as const;
  readonly known: boolean;
  constructor(
    readonly reason: KnownServiceErrorMessage | (string & {}),
    readonly endpoint: string,
    readonly envelope: RawEnvelope | undefined,
    readonly httpStatus: number,
  ) {
    super(`${endpoint}: the service refused the request: ${reason}${hintFor(reason) ? ` (${hintFor(reason)})` : ''}`);
    this.name = 'ServiceError';
    this.known = isKnownServiceErrorMessage(reason);
  }
}

/** Source IP not on the platform's whitelist: plain-text `Oops` (spec Authentication 7, §5.3). */
export class NotWhitelistedError extends ProtocolError {
  readonly kind = 'notWhitelisted' as const;
  constructor(readonly endpoint: string) {
    super(
      `${endpoint}: the service answered "Oops": this workstation's public IP address is not on the merchant's whitelist. Ask the platform to whitelist it.`,
    );
    this.name = 'NotWhitelistedError';
  }
}

export type VerificationFailure =
  | 'malformedEnvelope'
  | 'missingHeaders'
  | 'badTimestamp'
  | 'staleTimestamp'
  | 'badNonce'
  | 'replayedNonce'
  | 'badSignature'
  | 'decryptFailed'
  | 'schemaMismatch'
  | 'unexpectedResponse'
  | 'wrongAppId';

/** A response or callback that failed §4 verification. Its content is never returned to the caller. */
export class ResponseVerificationError extends ProtocolError {
  readonly kind = 'responseVerification' as const;
  constructor(
    readonly failure: VerificationFailure,
    readonly endpoint: string,
    detail: string,
  ) {
    super(`${endpoint}: the response was refused (${failure}): ${detail}`);
    this.name = 'ResponseVerificationError';
  }
}

/**
 * The request could not complete at the transport level. `ambiguous` is true when the request may have reached
 * the service (timeout after sending, reset, 5xx, lost response): the caller must reconcile, never blindly resend
 * a non-idempotent operation under a new identifier.
 */
export class TransportError extends ProtocolError {
  readonly kind = 'transport' as const;
  constructor(
    readonly endpoint: string,
    readonly ambiguous: boolean,
    detail: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(`${endpoint}: ${detail}${ambiguous ? ' (the request may have reached the service)' : ''}`, options);
    this.name = 'TransportError';
  }
}

/** Raised before sending: the encrypted body would exceed the 131072-byte limit (§5.4). */
export class RequestTooLargeError extends ProtocolError {
  readonly kind = 'requestTooLarge' as const;
  constructor(
    readonly endpoint: string,
    readonly bodyBytes: number,
    readonly limitBytes: number,
  ) {
    super(`${endpoint}: the encrypted request is ${bodyBytes} bytes, over the service's limit of ${limitBytes}; send less data per request.`);
    this.name = 'RequestTooLargeError';
  }
}

/** A caller passed a value the protocol forbids (limit outside 1..100, QR address charset, ...). Nothing was sent. */
export class InvalidArgumentError extends ProtocolError {
  readonly kind = 'invalidArgument' as const;
  constructor(
    readonly argument: string,
    detail: string,
  ) {
    super(`${argument}: ${detail}`);
    this.name = 'InvalidArgumentError';
  }
}

/**
 * Refused locally, nothing sent: a client-side guard mirrors a platform limit (checkTransfer: 20 requests per
 * rolling minute, §12.2) so the workstation never gets itself rate-limited. Retry after `retryAfterMs`.
 */
export class RateLimitedError extends ProtocolError {
  readonly kind = 'rateLimited' as const;
  constructor(
    readonly endpoint: string,
    readonly retryAfterMs: number,
    detail: string,
  ) {
    super(`${endpoint}: ${detail}; try again in ${Math.ceil(retryAfterMs / 1000)} s.`);
    this.name = 'RateLimitedError';
  }
}

export type KeyFormatFailure = 'unreadable' | 'encrypted' | 'notRsa' | 'tooSmall' | 'tooLarge' | 'wrongKind';

/** Key text that §1 does not accept. Never echoes the key text. */
export class KeyFormatError extends ProtocolError {
  readonly kind = 'keyFormat' as const;
  constructor(
    readonly failure: KeyFormatFailure,
    readonly keyLabel: string,
    detail: string,
  ) {
    super(`${keyLabel}: ${detail}`);
    this.name = 'KeyFormatError';
  }
}

export type CipherFailure = 'invalidBase64' | 'badLength' | 'oaepFailed' | 'invalidUtf8' | 'invalidJson' | 'emptyPlaintext';

/** Ciphertext that §2.4 refuses. */
export class CipherError extends ProtocolError {
  readonly kind = 'cipher' as const;
  constructor(
    readonly failure: CipherFailure,
    detail: string,
  ) {
    super(detail);
    this.name = 'CipherError';
  }
}

export function isKnownServiceErrorMessage(message: string): message is KnownServiceErrorMessage {
  return (SERVICE_ERROR_MESSAGES as readonly string[]).includes(message);
}

/** What an operator should do about a service error, in one phrase; empty when the message says it all. */
export function hintFor(reason: string): string {
  switch (reason) {
    case 'authFailed':
      return 'the merchant ID or secret is wrong; re-enter the credentials';
    case 'tokenExpired':
      return 'the session token expired; a new one is fetched automatically';
    case 'signatureFailed':
      return 'signature, clock or nonce check failed: check the merchant private key and that this computer\'s clock is within 5 minutes of the real time';
    case 'decryptFailed':
      return 'the service could not decrypt the request: check the platform public key';
    case 'apiVersionNotEnabled':
      return 'the account is still on protocol version 1: pass selfcheck and ask the platform to switch it to version 2';
    case 'auditorMessengerNotBound':
      return 'bind a finance-audit messaging account on the platform before using financialConfirmation';
    case 'withdrawTypeNotAllowed':
      return 'the merchant\'s withdrawal policy does not allow this withdrawal type';
    case 'insufficientBalance':
      return 'the available balance does not cover amount plus fee';
    case 'userOrderConflict':
      return 'this order identifier was already used with different parameters';
    case 'rateLimited':
      return 'too many transfer checks: wait a minute';
    default:
      return '';
  }
}
