// The typed API over the contract: the method maps as async functions answering Result, the request parser every
// transport (IPC, harness WebSocket) runs before calling a handler, callMethod (parse, then call) for every face, and
// the window's dispatch, which refuses a window
// that names a file path (ARCHITECTURE house rule 13).
import { unexpectedErrorMessage } from './application-log';
import { DESKTOP_CONTRACT, type DesktopMethodName } from './desktop';
import type { ContractEvent } from './events';
import { CONTRACT, type MethodName, type ParsedRequestOf, type RequestOf, type ResponseOf } from './methods';
import { fail, type Result } from './result';

/** The engine side: one async function per method; it never throws (it answers Result). */
export type TreasuryHandlers = { readonly [M in MethodName]: (request: ParsedRequestOf<M>) => Promise<Result<ResponseOf<M>>> };

/** The shell side (Electron main, or the harness's double): one async function per desktop method. */
export type DesktopHandlers = { readonly [M in DesktopMethodName]: (request: ParsedRequestOf<M>) => Promise<Result<ResponseOf<M>>> };

/** Everything a window may call: the engine's methods and the desktop's. */
export type WindowHandlers = TreasuryHandlers & DesktopHandlers;
export type WindowMethodName = MethodName | DesktopMethodName;

/** The CLI's caller side: call an engine method by name. */
export type TreasuryCall = <M extends MethodName>(method: M, request: RequestOf<M>) => Promise<Result<ResponseOf<M>>>;

/** The window's caller side (renderer): call an engine or desktop method by name. */
export type WindowCall = <M extends WindowMethodName>(method: M, request: RequestOf<M>) => Promise<Result<ResponseOf<M>>>;

/** What the preload exposes as `window.treasury`: `call` by method name plus an event subscription. */
export interface TreasuryBridge {
  readonly call: WindowCall;
  /** Subscribes to engine events; returns the unsubscribe function. */
  readonly onEvent: (listener: (event: ContractEvent) => void) => () => void;
}

export function isMethodName(value: unknown): value is MethodName {
  return typeof value === 'string' && Object.hasOwn(CONTRACT, value);
}

export function isDesktopMethodName(value: unknown): value is DesktopMethodName {
  return typeof value === 'string' && Object.hasOwn(DESKTOP_CONTRACT, value);
}

export function isWindowMethodName(value: unknown): value is WindowMethodName {
  return isMethodName(value) || isDesktopMethodName(value);
}

/** Every method a window may call, engine's first. */
export const WINDOW_METHOD_NAMES: readonly WindowMethodName[] = [...(Object.keys(CONTRACT) as MethodName[]), ...(Object.keys(DESKTOP_CONTRACT) as DesktopMethodName[])];

/**
 * Engine methods that take a file path, the field that names it, and the desktop method a window uses instead (which
 * asks with the system's dialog). The CLI names paths, because its user types them; a window never does. A test
 * checks that every path field of the contract is listed here.
 */
export const WINDOW_PATH_FIELDS: Readonly<Partial<Record<MethodName, { readonly field: string; readonly instead: DesktopMethodName }>>> = Object.freeze({
  'deposits/exportCsv': { field: 'path', instead: 'desktop/exportDepositsCsv' },
  'withdrawals/exportCsv': { field: 'path', instead: 'desktop/exportWithdrawalsCsv' },
  'statements/exportCsv': { field: 'path', instead: 'desktop/exportStatementCsv' },
  'statements/savePdf': { field: 'path', instead: 'desktop/exportStatementPdf' },
  'accounting/export': { field: 'path', instead: 'desktop/exportAccounting' },
  'audit/export': { field: 'path', instead: 'desktop/exportAudit' },
  'audit/checkpoint': { field: 'path', instead: 'desktop/saveCheckpoint' },
  'audit/pack': { field: 'path', instead: 'desktop/exportAuditPack' },
  'audit/verify': { field: 'against', instead: 'desktop/verifyAuditAgainst' },
  'profiles/importFile': { field: 'path', instead: 'desktop/importProfile' },
  'diagnostics/export': { field: 'path', instead: 'desktop/exportDiagnostics' },
  'labels/export': { field: 'path', instead: 'desktop/exportLabels' },
  'labels/import': { field: 'path', instead: 'desktop/importLabels' },
  'payouts/import': { field: 'path', instead: 'desktop/importPayouts' },
  'payees/import': { field: 'path', instead: 'desktop/importPayees' },
  'payouts/exportCsv': { field: 'path', instead: 'desktop/exportPayoutsCsv' },
});

function schemaOf<M extends WindowMethodName>(method: M): (typeof CONTRACT & typeof DESKTOP_CONTRACT)[M]['request'] {
  return (isMethodName(method) ? CONTRACT[method].request : DESKTOP_CONTRACT[method as DesktopMethodName].request) as (typeof CONTRACT & typeof DESKTOP_CONTRACT)[M]['request'];
}

/** Parses an untrusted request for `method`; field errors come back as `invalidInput` with per-field messages. */
export function parseRequest<M extends WindowMethodName>(method: M, payload: unknown): Result<ParsedRequestOf<M>> {
  const parsed = schemaOf(method).safeParse(payload ?? {});
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
/** Handlers that answer at least the methods `M` (TreasuryHandlers for engine methods, WindowHandlers for all). */
export type HandlersFor<M extends WindowMethodName> = { readonly [K in M]: (request: ParsedRequestOf<K>) => Promise<Result<ResponseOf<K>>> };

/**
 * Calls `method` as every face does (the CLI, the demo desk, the window's dispatch, the test harnesses): `request`
 * parsed by the method's schema first (bad input is answered `invalidInput` and nothing runs), then the handler on
 * the parsed value. It never throws for a refusal; each caller turns a refusal into its own error.
 */
export async function callMethod<M extends WindowMethodName>(handlers: HandlersFor<M>, method: M, request: unknown): Promise<Result<ResponseOf<M>>> {
  const parsed = parseRequest(method, request);
  if (!parsed.ok) return parsed;
  const handler = handlers[method] as (request: ParsedRequestOf<M>) => Promise<Result<ResponseOf<M>>>;
  return handler(parsed.value);
}

export type UnexpectedErrorReporter = (method: WindowMethodName, error: unknown) => void;

/** Dispatches an untrusted (method, payload) pair to handlers: unknown method and bad payload are answered, not thrown. */
export async function dispatch(
  handlers: TreasuryHandlers | WindowHandlers,
  method: unknown,
  payload: unknown,
  reportUnexpected: UnexpectedErrorReporter,
): Promise<Result<unknown>> {
  const handler = isWindowMethodName(method) ? (handlers as Readonly<Record<string, unknown>>)[method] : undefined;
  if (!isWindowMethodName(method) || typeof handler !== 'function') return fail('invalidInput', `unknown method ${JSON.stringify(String(method)).slice(0, 80)}`);
  try {
    return await callMethod(handlers as HandlersFor<WindowMethodName>, method, payload);
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

/**
 * Dispatches an untrusted (method, payload) pair from a window: engine and desktop methods, but an engine method whose
 * request names a file path is refused as `forbidden` (whatever the path), pointing to the desktop method to use.
 */
export async function dispatchWindowCall(handlers: WindowHandlers, method: unknown, payload: unknown, reportUnexpected: UnexpectedErrorReporter): Promise<Result<unknown>> {
  if (!isWindowMethodName(method)) return fail('invalidInput', `unknown method ${JSON.stringify(String(method)).slice(0, 80)}`);
  const pathField = isMethodName(method) ? WINDOW_PATH_FIELDS[method] : undefined;
  if (pathField !== undefined && typeof payload === 'object' && payload !== null && Object.hasOwn(payload, pathField.field)) {
    return fail('forbidden', `${method}: a window may not name a file (${pathField.field}); use ${pathField.instead}, which asks with the system's file dialog.`);
  }
  return dispatch(handlers, method, payload, reportUnexpected);
}
