// The window.treasury bridge: `call` (known contract methods only, answered as a Result, never a rejection) and
// `onEvent` (engine events, payload only). Built over the few ipcRenderer functions it needs; never exposes them.
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import type { ContractEvent, Result, TreasuryBridge, WindowCall, WindowMethodName } from '../contract';
import { EVENT_CHANNEL } from '../contract/events';
import { RENDERER_ERROR_LIMITS } from '../contract/limits';
import { fail } from '../contract/result';
import { PRELOAD_METHOD_NAMES } from './method-names';

const KNOWN_METHODS: ReadonlySet<string> = new Set<string>(PRELOAD_METHOD_NAMES);

export function isKnownMethod(method: unknown): method is WindowMethodName {
  return typeof method === 'string' && KNOWN_METHODS.has(method);
}

function isContractEvent(payload: unknown): payload is ContractEvent {
  return typeof payload === 'object' && payload !== null && typeof (payload as { type?: unknown }).type === 'string';
}

export type BridgeIpc = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

/** Sends a failing event listener's error to main (desktop/reportError), cut to the contract's bounds; never throws. */
function reportListenerFailure(ipc: BridgeIpc, eventType: string, error: unknown): void {
  try {
    const message = `an event listener for ${eventType} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    const stack = error instanceof Error && typeof error.stack === 'string' ? { stack: error.stack.slice(0, RENDERER_ERROR_LIMITS.stackChars) } : {};
    void Promise.resolve(ipc.invoke('desktop/reportError', { kind: 'error', message: message.slice(0, RENDERER_ERROR_LIMITS.messageChars), ...stack })).catch(() => undefined);
  } catch {
    // reporting is best effort
  }
}

export function createTreasuryBridge(ipc: BridgeIpc): TreasuryBridge {
  const call = (async (method: unknown, request: unknown): Promise<Result<unknown>> => {
    if (!isKnownMethod(method)) {
      return fail('invalidInput', `unknown method ${JSON.stringify(String(method)).slice(0, 80)}`);
    }
    try {
      return (await ipc.invoke(method, request)) as Result<unknown>;
    } catch (error) {
      // Only reachable when the request cannot be sent (not cloneable) or the main process has no handler.
      const name = error instanceof Error ? error.name : 'Error';
      return fail('internal', `${method} could not be delivered to the engine (${name}).`);
    }
  }) as WindowCall;

  const onEvent = (listener: (event: ContractEvent) => void): (() => void) => {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a listener function.');
    const forward = (_event: IpcRendererEvent, payload: unknown): void => {
      if (!isContractEvent(payload)) return;
      try {
        listener(payload);
      } catch (error) {
        // One failing listener must not starve the others; the failure goes to main's application log.
        console.error('A treasury event listener failed:', error);
        reportListenerFailure(ipc, payload.type, error);
      }
    };
    ipc.on(EVENT_CHANNEL, forward);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipc.removeListener(EVENT_CHANNEL, forward);
    };
  };

  return Object.freeze({ call, onEvent });
}
