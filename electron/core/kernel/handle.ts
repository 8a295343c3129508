// What every module's contract handlers share: the wrapper that turns an engine function into a contract handler (lock
// check, idle-lock activity, secrets registered with the log's redactor, every failure mapped to the contract's error)
// and the page sizes. Each module's handlers.ts declares the parts of the engine it uses and answers its own methods;
// service.ts composes them. (Reading and writing the files a person names is core/files/named-files.ts.)
import { ok, type MethodName, type Result, type TreasuryHandlers } from '../../contract';
import { toContractError } from './errors';
import { appLog, registerRequestSecrets } from '../log';

export const DEFAULT_PAGE = 50;
export const EXPORT_PAGE = 1000;

/**
 * Methods a locked desk still answers besides session/*: an invited operator completes their invitation at the desk
 * (the one-time code and their own new passphrase prove who they are), without anyone unlocking it for them; the
 * desktop's tray and badge keep counting the approvals waiting for the workstation's operator (a number, nothing
 * more); and diagnostics, which must work when the desk cannot be unlocked (they hold no secret, and the log they
 * include is readable in the data folder by this user anyway).
 */
const ALLOWED_WHILE_LOCKED: ReadonlySet<MethodName> = new Set(['operators/accept', 'notifications/waiting', 'diagnostics/export']);

/**
 * What counts as a person's activity for the idle lock: session/activity (the face reports keyboard and pointer
 * input) and any call carrying an operator's passphrase (`as`, an unlock, an acceptance), which only a person types.
 * Every other call may be a background refresh (an event, a timer) and never postpones the lock.
 */
function isPersonsInput(request: unknown): boolean {
  if (request === null || typeof request !== 'object') return false;
  const fields = request as { readonly as?: unknown; readonly passphrase?: unknown };
  return fields.as !== undefined || fields.passphrase !== undefined;
}

export type MethodRequest<M extends MethodName> = Parameters<TreasuryHandlers[M]>[0];

/** Turns `run` into method M's handler. */
export type Handle = <M extends MethodName, T>(method: M, run: (request: MethodRequest<M>) => Promise<T> | T) => (request: MethodRequest<M>) => Promise<Result<T>>;

/** What the wrapper needs of the desk's session lock (core/session.ts): whether it is locked, and a person's activity. */
export interface LockGate {
  readonly locked: boolean;
  touch(): void;
}

/** The handler wrapper over this desk's session lock. */
export function handlerWrapper(session: LockGate): Handle {
  return <M extends MethodName, T>(method: M, run: (request: MethodRequest<M>) => Promise<T> | T) =>
    async (request: MethodRequest<M>): Promise<Result<T>> => {
      if (session.locked && !method.startsWith('session/') && !ALLOWED_WHILE_LOCKED.has(method)) {
        return { ok: false, error: { code: 'locked', message: 'the desk is locked: an operator must unlock it with their passphrase' } };
      }
      if (isPersonsInput(request)) session.touch();
      // A passphrase, an invitation code or a pasted secret is known to the log's redactor before anything can log it.
      registerRequestSecrets(request);
      try {
        return ok(await run(request));
      } catch (error) {
        const mapped = toContractError(error);
        // A refusal is an answer; anything else is a fault worth a record (house rule 14).
        if (mapped.code === 'internal') appLog.error(`engine: ${method} failed unexpectedly`, { method, error });
        return { ok: false, error: mapped };
      }
    };
}
