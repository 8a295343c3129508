// The one place a signed envelope is opened, for responses and callbacks alike (PROTOCOL §3.3, §4, §10): parse,
// check headers, window and nonce, verify the signature, remember the nonce, decrypt, parse, validate.
// Invariant: nothing unverified is ever returned; every refusal is a ResponseVerificationError.
import type { KeyObject } from 'node:crypto';
import type { z } from 'zod';
import { parsePlaintextJson } from './cipher';
import type { PayloadDecryptor } from './decryptor';
import { parseEnvelope, type Envelope } from './envelope';
import { attachSignedEvidence } from './evidence';
import { CipherError, NotWhitelistedError, ResponseVerificationError, ServiceError } from './errors';
import { traceIntake } from './intake-tracing';
import { singleHeader, type HttpHeaders, type HttpResponse } from './http';
import {
  CODE_FAILURE,
  CODE_SUCCESS,
  HEADER,
  NOT_WHITELISTED_BODY,
  NOT_WHITELISTED_STATUS,
  REQUEST_TOO_LARGE_STATUS,
  TIMESTAMP_WINDOW_SECONDS,
} from './profile';
import {
  callbackRecordSchema,
  describeIssues,
  type DepositRecord,
  type WithdrawalOrderRecord,
} from './schemas';
import { verifyText, signingInput } from './signature';
import { isValidNonce, isWithinWindow, parseTimestamp, unixSeconds, type Clock, type ReplayMemory } from './wire';

/** The three response/callback headers of §5.2 / §10.1, as received (undefined when absent). */
export interface SignatureHeaders {
  readonly timestamp: string | undefined;
  readonly nonce: string | undefined;
  readonly sign: string | undefined;
}

/** Picks SVC-TIMESTAMP, SVC-NONCE, SVC-SIGN from received headers; a repeated header counts as absent. */
export function signatureHeadersFrom(headers: HttpHeaders): SignatureHeaders {
  return {
    timestamp: singleHeader(headers, HEADER.timestamp),
    nonce: singleHeader(headers, HEADER.nonce),
    sign: singleHeader(headers, HEADER.sign),
  };
}

const REPORT_IF_PERSISTS = 'Report this to the platform if it persists.';

/** What opening an envelope needs: the platform's public key, our decryptor, the nonce memory and a clock. */
export interface VerifyContext {
  readonly platformPublicKey: KeyObject;
  readonly decryptor: PayloadDecryptor;
  readonly nonceMemory: ReplayMemory;
  readonly clock: Clock;
}

/** A verified envelope: success with the validated business value, or a verified code 9999 failure. */
export type OpenedEnvelope<T> =
  | { readonly ok: true; readonly envelope: Envelope; readonly value: T }
  | { readonly ok: false; readonly envelope: Envelope };

/**
 * Opens a signed envelope (§3.3, §4.2–§4.4). Order: strict envelope parse, headers present, timestamp digits and
 * ±300 s window, nonce format, signature over "TIMESTAMP\nNONCE\nDATA", then the nonce is remembered (only now, so
 * forged traffic cannot fill the memory) and a repeat refused; for code 10000 only: decrypt, parse JSON, validate.
 */
export async function openSignedEnvelope<S extends z.ZodType>(
  endpoint: string,
  bodyText: string,
  headers: SignatureHeaders,
  schema: S,
  context: VerifyContext,
): Promise<OpenedEnvelope<z.output<S>>> {
  const refuse = (failure: ResponseVerificationError['failure'], detail: string) =>
    new ResponseVerificationError(failure, endpoint, detail);

  const parsed = parseEnvelope(bodyText);
  if (!parsed.ok) {
    throw refuse(
      'malformedEnvelope',
      `${parsed.reason}; expected exactly the JSON envelope {code, data, message}. Check the service base URL and any proxy in between.`,
    );
  }
  const { envelope } = parsed;
  if (envelope.code === CODE_FAILURE && envelope.data !== '') {
    throw refuse('malformedEnvelope', 'a failure envelope (code 9999) carries data, which failures never do; the answer is refused.');
  }

  const { timestamp, nonce, sign } = headers;
  const missing = [
    timestamp === undefined ? HEADER.timestamp : undefined,
    nonce === undefined ? HEADER.nonce : undefined,
    sign === undefined ? HEADER.sign : undefined,
  ].filter((name): name is NonNullable<typeof name> => name !== undefined);
  if (timestamp === undefined || nonce === undefined || sign === undefined) {
    throw refuse(
      'missingHeaders',
      `${missing.join(', ')} missing or repeated, so the answer cannot be authenticated; check that no proxy strips these headers.`,
    );
  }

  const seconds = parseTimestamp(timestamp);
  if (seconds === undefined) {
    throw refuse('badTimestamp', `${HEADER.timestamp} is not whole Unix seconds (§4.1); the answer is refused. ${REPORT_IF_PERSISTS}`);
  }
  const now = unixSeconds(context.clock);
  if (!isWithinWindow(seconds, now)) {
    const drift = seconds - now;
    throw refuse(
      'staleTimestamp',
      `the signed time is ${Math.abs(drift)} s ${drift > 0 ? 'ahead of' : 'behind'} this computer's clock ` +
        `(allowed ±${TIMESTAMP_WINDOW_SECONDS} s); check that the clock is set automatically, then retry.`,
    );
  }
  if (!isValidNonce(nonce)) {
    throw refuse('badNonce', `${HEADER.nonce} is not 16-64 letters or digits (§4.3); the answer is refused. ${REPORT_IF_PERSISTS}`);
  }

  if (!verifyText(signingInput(timestamp, nonce, envelope.data), sign, context.platformPublicKey)) {
    throw refuse(
      'badSignature',
      'the signature does not verify with the platform public key; the answer may have been altered, ' +
        'or the configured platform public key is wrong.',
    );
  }

  if (!context.nonceMemory.remember(nonce, now)) {
    throw refuse(
      'replayedNonce',
      'this answer was already received once (repeated nonce) and is refused as a replay; ' +
        'retry the request, and report it if it repeats.',
    );
  }

  if (envelope.code !== CODE_SUCCESS) return { ok: false, envelope };

  const unreadable = (error: unknown): unknown =>
    error instanceof CipherError
      ? refuse('decryptFailed', `${error.message} Check that the merchant private key matches the public key registered with the platform.`)
      : error;
  let plaintext: Buffer;
  try {
    plaintext = await context.decryptor.decrypt(envelope.data);
  } catch (error) {
    throw unreadable(error);
  }
  return traceIntake('validate', (): OpenedEnvelope<z.output<S>> => {
    let json: unknown;
    try {
      json = parsePlaintextJson(plaintext);
    } catch (error) {
      throw unreadable(error);
    }
    const result = schema.safeParse(json);
    if (!result.success) {
      throw refuse(
        'schemaMismatch',
        `the decrypted data does not have the expected shape (${describeIssues(result.error)}); ` +
          'nothing was used. Report this to the platform.',
      );
    }
    attachSignedEvidence(result.data, { timestamp, nonce, data: envelope.data, signature: sign });
    return { ok: true, envelope, value: result.data };
  });
}

/** A verified callback (§10): the record, typed by `businessType`. */
export type VerifiedCallback =
  | { readonly type: 'deposit'; readonly record: DepositRecord }
  | { readonly type: 'withdraw'; readonly record: WithdrawalOrderRecord };

export interface CallbackContext extends VerifyContext {
  /** Our merchant ID: a callback's SVC-APP-ID must equal it. */
  readonly merchantId: string;
}

/**
 * Verifies a callback POST (§10.1): SVC-APP-ID must be ours, then the envelope is opened exactly like a response and
 * must be a success (code 10000) carrying a deposit or withdrawal record. The caller acknowledges with "success" only
 * after this resolves and the record is stored.
 */
export async function verifyCallback(bodyText: string, headers: HttpHeaders, context: CallbackContext): Promise<VerifiedCallback> {
  const endpoint = 'callback';
  const appId = singleHeader(headers, HEADER.appId);
  if (appId === undefined) {
    throw new ResponseVerificationError('missingHeaders', endpoint, `${HEADER.appId} is missing or repeated; the callback is refused.`);
  }
  if (appId !== context.merchantId) {
    throw new ResponseVerificationError(
      'wrongAppId',
      endpoint,
      `the callback is addressed to another merchant ID than this profile's; check the callback URL configured on the platform.`,
    );
  }
  const opened = await openSignedEnvelope(endpoint, bodyText, signatureHeadersFrom(headers), callbackRecordSchema, context);
  if (!opened.ok) {
    throw new ResponseVerificationError(
      'unexpectedResponse',
      endpoint,
      'a callback must carry code 10000 and a record; it carried a failure envelope and is refused.',
    );
  }
  const record = opened.value;
  return record.businessType === 'deposit' ? { type: 'deposit', record } : { type: 'withdraw', record };
}

/**
 * Reads a business endpoint's HTTP answer (§5.2–§5.4): `Oops` is NotWhitelistedError, 413 is
 * ServiceError('requestTooLarge'), a non-200 status is refused, and a 200 answer is opened with openSignedEnvelope;
 * a verified code 9999 becomes a ServiceError carrying the raw envelope (unknown messages verbatim, §7).
 */
export async function readBusinessResponse<S extends z.ZodType>(
  endpoint: string,
  response: HttpResponse,
  schema: S,
  context: VerifyContext,
): Promise<z.output<S>> {
  const text = response.body.toString('utf8');
  if (text.trim() === NOT_WHITELISTED_BODY && (response.status === NOT_WHITELISTED_STATUS || response.status === 200)) {
    throw new NotWhitelistedError(endpoint);
  }
  if (response.status === REQUEST_TOO_LARGE_STATUS) {
    const parsed = parseEnvelope(text);
    throw new ServiceError('requestTooLarge', endpoint, parsed.ok ? parsed.envelope : undefined, response.status);
  }
  if (response.status !== 200) {
    throw new ResponseVerificationError(
      'unexpectedResponse',
      endpoint,
      `the service answered HTTP ${response.status} instead of 200${response.status === 404 ? '; check the service base URL' : ''}.`,
    );
  }
  const opened = await openSignedEnvelope(endpoint, text, signatureHeadersFrom(response.headers), schema, context);
  if (!opened.ok) throw new ServiceError(opened.envelope.message, endpoint, opened.envelope, response.status);
  return opened.value;
}
