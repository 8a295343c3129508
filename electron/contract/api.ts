// The typed API over the contract: the method map as async functions answering Result, and the request parser
// every transport (IPC, harness WebSocket) runs before calling the engine.
import { unexpectedErrorMessage } from './application-log';
import type { ContractEvent } from './events';
import { CONTRACT, type MethodName, type ParsedRequestOf, type RequestOf, type ResponseOf } from './methods';
import { fail, type Result } from './result';

/** The engine side: one async function per method; it never throws (it answers Result). */
export type TreasuryHandlers = { readonly [M in MethodName]: (request: ParsedRequestOf<M>) => Promise<Result<ResponseOf<M>>> };

/** The caller side (renderer, CLI): call a method by name. */
export type TreasuryCall = <M extends MethodName>(method: M, request: RequestOf<M>) => Promise<Result<ResponseOf<M>>>;

/** What the preload exposes as `window.treasury`: `call` by method name plus an event subscription. */
export interface TreasuryBridge {
  readonly call: TreasuryCall;
  /** Subscribes to engine events; returns the unsubscribe function. */
  readonly onEvent: (listener: (event: ContractEvent) => void) => () => void;
}

export function isMethodName(value: unknown): value is MethodName {
  return typeof value === 'string' && Object.hasOwn(CONTRACT, value);
}

/** Parses an untrusted request for `method`; field errors come back as `invalidInput` with per-field messages. */
export function parseRequest<M extends MethodName>(method: M, payload: unknown): Result<ParsedRequestOf<M>> {
  const parsed = CONTRACT[method].request.safeParse(payload ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as ParsedRequestOf<M> };
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '(request)';
    fields[key] ??= issue.message;
  }
  const summary = Object.entries(fields)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  return fail('invalidInput', `${method}: ${summary}`, { fields });
}

/**
 * Records a handler that threw instead of answering a Result (a bug) in the face's application log. The contract
 * cannot import the logger (it lives in core): every transport passes its own, so no such error goes unrecorded.
 */
export type UnexpectedErrorReporter = (method: MethodName, error: unknown) => void;

/** Dispatches an untrusted (method, payload) pair to handlers: unknown method and bad payload are answered, not thrown. */
export async function dispatch(handlers: TreasuryHandlers, method: unknown, payload: unknown, reportUnexpected: UnexpectedErrorReporter): Promise<Result<unknown>> {
  if (!isMethodName(method)) return fail('invalidInput', `unknown method ${JSON.stringify(String(method)).slice(0, 80)}`);
  const request = parseRequest(method, payload);
  if (!request.ok) return request;
  try {
    const handler = handlers[method] as (request: unknown) => Promise<Result<unknown>>;
    return await handler(request.value);
  } catch (error) {
    // Handlers answer Result; reaching here is a bug. Record it, and say so without leaking internals.
    try {
      reportUnexpected(method, error);
    } catch {
      // a failing reporter must not turn an answer into a throw
    }
    const name = error instanceof Error ? error.name : 'Error';
    return fail('internal', unexpectedErrorMessage(`${method} failed unexpectedly (${name})`));
  }
}
