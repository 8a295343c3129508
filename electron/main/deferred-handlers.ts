// Contract handlers available before the engine is: each call waits for the engine to start; if it failed to start,
// each call is answered with why (never a rejection), so the window can open at once and show the problem.
import { fail, METHOD_NAMES, type MethodName, type Result, type TreasuryHandlers } from '../contract';

type AnyHandler = (request: unknown) => Promise<Result<unknown>>;

function buildHandlers(make: (method: MethodName) => AnyHandler): TreasuryHandlers {
  const entries = METHOD_NAMES.map((method) => [method, make(method)] as const);
  return Object.freeze(Object.fromEntries(entries)) as unknown as TreasuryHandlers;
}

/** Handlers that answer every method with `internal` and `message` (the engine did not start). */
export function unavailableHandlers(message: string): TreasuryHandlers {
  return buildHandlers((method) => async () => fail('internal', `${method}: ${message}`));
}

/** Handlers that forward to the engine's once `ready` settles; a failed start becomes unavailableHandlers. */
export function deferredHandlers(ready: Promise<TreasuryHandlers>): TreasuryHandlers {
  const settled = ready.catch((error: unknown) => unavailableHandlers(startFailureMessage(error)));
  return buildHandlers((method) => async (request) => {
    const handlers = await settled;
    return (handlers[method] as unknown as AnyHandler)(request);
  });
}

/** One line saying why the engine did not start (the first line of the error's message, at most 300 characters). */
export function startFailureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  const short = line.length > 300 ? `${line.slice(0, 300)}…` : line;
  return short === '' ? 'the treasury engine did not start.' : short;
}
