// The engine's own refusals (DeskError) and the one mapping from any failure to the contract's error shape.
// Messages say what happened and what to do; unknown errors never leak their text across the contract.
import { unexpectedErrorMessage, type ContractError, type ContractErrorCode } from '../../contract';
import { ProtocolError, ResponseVerificationError, ServiceError } from '../../protocol';
import { SecretsError } from './secrets-errors';
import { StoreError } from '../store/errors';

/** A refusal decided by the engine: wrong role, wrong passphrase, illegal state, bad input... */
export class DeskError extends Error {
  override readonly name = 'DeskError';
  constructor(
    readonly code: ContractErrorCode,
    message: string,
    readonly fields?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

const CREDENTIAL_REASONS = new Set(['authFailed', 'decryptFailed', 'signatureFailed']);

function fromProtocolError(error: ProtocolError): ContractError {
  switch (error.kind) {
    case 'transport':
      return { code: 'offline', message: error.message };
    case 'notWhitelisted':
      return { code: 'notWhitelisted', message: error.message };
    case 'service': {
      const reason = error instanceof ServiceError ? error.reason : 'unknown';
      return { code: CREDENTIAL_REASONS.has(reason) ? 'credentials' : 'service', message: error.message, serviceReason: reason };
    }
    case 'responseVerification':
      if (error instanceof ResponseVerificationError && error.failure === 'staleTimestamp') {
        return { code: 'clockDrift', message: `${error.message}. Check that this computer's clock is correct.` };
      }
      return { code: 'verification', message: error.message };
    case 'requestTooLarge':
    case 'invalidArgument':
    case 'keyFormat':
    case 'cipher':
      return { code: 'invalidInput', message: error.message };
    case 'rateLimited':
      return { code: 'service', message: error.message, serviceReason: 'rateLimited' };
    default: {
      const unreachable: never = error.kind;
      return unreachable;
    }
  }
}

function fromSecretsError(error: SecretsError): ContractError {
  switch (error.kind) {
    case 'keychainUnavailable':
      return { code: 'keychainUnavailable', message: error.message };
    case 'profileNotFound':
      return { code: 'noProfile', message: error.message };
    case 'profileExists':
      return { code: 'conflict', message: error.message };
    default:
      return { code: 'invalidInput', message: error.message };
  }
}

/** Maps any thrown value to a ContractError. */
export function toContractError(error: unknown): ContractError {
  if (error instanceof DeskError) return { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
  if (error instanceof ProtocolError) return fromProtocolError(error);
  if (error instanceof SecretsError) return fromSecretsError(error);
  if (error instanceof StoreError) {
    return { code: error.kind === 'invalidArgument' ? 'invalidInput' : error.kind === 'notFound' ? 'notFound' : 'internal', message: error.message };
  }
  const name = error instanceof Error ? error.name : typeof error;
  return { code: 'internal', message: unexpectedErrorMessage(`an unexpected ${name} occurred`) };
}
