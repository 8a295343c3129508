// IPC wiring of the contract: one ipcMain.handle per method (channel = method name; engine and desktop methods), each
// checking the sender frame, then dispatching as a window call (a path named by the window is refused; zod parse;
// the engine's or the desktop's handler), and answering a Result; plus the event broadcast to our windows.
// Invariant: nothing throws across IPC — a foreign sender, a bad payload or a crashing handler is answered as a Result.
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import {
  dispatchWindowCall,
  EVENT_CHANNEL,
  fail,
  unexpectedErrorMessage,
  WINDOW_METHOD_NAMES,
  type ContractEvent,
  type Result,
  type WindowHandlers,
  type WindowMethodName,
} from '../contract';
import { appLog } from '../core/log';
import { isTrustedRendererUrl, type TrustedRenderer } from './security';

/** Who may call: the main frame of a window we created, showing one of our own pages. */
export interface SenderPolicy {
  readonly trusted: TrustedRenderer;
  /** True for the web contents of a window this app created (not a devtools page, not anything else). */
  readonly isOwnWebContents: (contents: WebContents) => boolean;
}

export interface ContractIpcOptions {
  /**
   * Observes every answer before it is sent (e.g. a test harness scanning for secret-like content). If it throws,
   * the caller gets `internal` instead of the answer. Not used in production.
   */
  readonly inspectResult?: (method: WindowMethodName, result: Result<unknown>) => void;
}

/** True when an invoke comes from the main frame of one of our windows, on one of our pages. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, policy: SenderPolicy): boolean {
  const frame = event.senderFrame;
  if (frame === null || frame === undefined) return false; // the frame navigated away or was destroyed
  if (frame.parent !== null) return false; // only the main frame, never an iframe
  if (!policy.isOwnWebContents(event.sender)) return false;
  return isTrustedRendererUrl(frame.url, policy.trusted);
}

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { ok?: unknown; value?: unknown; error?: unknown };
  if (candidate.ok === true) return 'value' in candidate;
  if (candidate.ok !== false || typeof candidate.error !== 'object' || candidate.error === null) return false;
  const error = candidate.error as { code?: unknown; message?: unknown };
  return typeof error.code === 'string' && typeof error.message === 'string';
}

/** A handler (or the IPC wiring itself) threw: recorded in the application log, redacted. */
export function reportUnexpectedIpcError(method: WindowMethodName, error: unknown): void {
  appLog.error(`ipc: ${method} failed unexpectedly`, { method, error });
}

/** Answers one invoke of `method`; never throws. Exported for tests; production goes through registerContractIpc. */
export async function answerInvoke(
  handlers: WindowHandlers,
  policy: SenderPolicy,
  method: WindowMethodName,
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  args: readonly unknown[],
  options: ContractIpcOptions = {},
): Promise<Result<unknown>> {
  try {
    if (!isTrustedSender(event, policy)) {
      return fail('forbidden', `${method}: refused: the request did not come from a Treasury Desk window.`);
    }
    if (args.length > 1) return fail('invalidInput', `${method}: send one request object.`);
    const result = await dispatchWindowCall(handlers, method, args[0], reportUnexpectedIpcError);
    if (!isResult(result)) {
      appLog.error(`ipc: ${method} gave a malformed answer`, { method, answer: typeof result });
      return fail('internal', unexpectedErrorMessage(`${method} gave a malformed answer`));
    }
    options.inspectResult?.(method, result);
    return result;
  } catch (error) {
    reportUnexpectedIpcError(method, error);
    const name = error instanceof Error ? error.name : 'Error';
    return fail('internal', unexpectedErrorMessage(`${method} failed unexpectedly (${name})`));
  }
}

/** Registers one handler per contract method; returns a function that removes them all. */
export function registerContractIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  handlers: WindowHandlers,
  policy: SenderPolicy,
  options: ContractIpcOptions = {},
): () => void {
  for (const method of WINDOW_METHOD_NAMES) {
    ipcMain.handle(method, (event, ...args: unknown[]) => answerInvoke(handlers, policy, method, event, args, options));
  }
  return () => {
    for (const method of WINDOW_METHOD_NAMES) ipcMain.removeHandler(method);
  };
}

type EventTarget = Pick<BrowserWindow, 'isDestroyed'> & { readonly webContents: Pick<WebContents, 'send' | 'getURL' | 'isDestroyed'> };

/** Sends an engine event to each of our live windows that still shows one of our pages; never throws. */
export function broadcastEvent(windows: Iterable<EventTarget>, event: ContractEvent, trusted: TrustedRenderer): number {
  let delivered = 0;
  for (const window of windows) {
    try {
      if (window.isDestroyed() || window.webContents.isDestroyed()) continue;
      if (!isTrustedRendererUrl(window.webContents.getURL(), trusted)) continue;
      window.webContents.send(EVENT_CHANNEL, event);
      delivered += 1;
    } catch {
      // A window closing mid-send is not an error worth surfacing; the next event reaches the survivors.
    }
  }
  return delivered;
}
