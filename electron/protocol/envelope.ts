// The response envelope {code, data, message} (spec "Response envelope", PROTOCOL §5.2): strict parsing for
// clients, and the server-side serialisation that escapes every '/' as '\/'.
import { CODE_FAILURE, CODE_SUCCESS } from './profile';
import type { RawEnvelope } from './errors';

export type Envelope = RawEnvelope;

/** Parses an envelope, or returns a reason when the text is not exactly {code: integer, data: string, message: string}. */
export function parseEnvelope(text: string): { ok: true; envelope: Envelope } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'the body is not a JSON object' };
  }
  const keys = Object.keys(value).sort();
  if (keys.length !== 3 || keys[0] !== 'code' || keys[1] !== 'data' || keys[2] !== 'message') {
    return { ok: false, reason: `the envelope has fields [${keys.join(', ')}], expected exactly code, data, message` };
  }
  const { code, data, message } = value as Record<string, unknown>;
  if (typeof code !== 'number' || !Number.isInteger(code)) return { ok: false, reason: 'code is not an integer' };
  if (code !== CODE_SUCCESS && code !== CODE_FAILURE) return { ok: false, reason: `code ${code} is neither 10000 nor 9999` };
  if (typeof data !== 'string') return { ok: false, reason: 'data is not a string' };
  if (typeof message !== 'string') return { ok: false, reason: 'message is not a string' };
  return { ok: true, envelope: { code, data, message } };
}

/** JSON text with every '/' written as '\/' (§5.2). In JSON text a '/' can only occur inside strings. */
export function toEscapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

export function successEnvelope(data: string, message = 'success'): Envelope {
  return { code: CODE_SUCCESS, data, message };
}

export function failureEnvelope(message: string): Envelope {
  return { code: CODE_FAILURE, data: '', message };
}
