// The renderer's only door to the engine: typed calls over window.treasury (the contract) and its event stream.
// Never throws: a missing bridge or a transport failure comes back as a Result error a screen can show.
// Invariant: every answer and event passes displaySafeBridge here, so no store or component ever holds text from the
// engine, the network or another person with a raw control or text-direction character in it (shown as a mark such as ⟨U+202E⟩).
// An error's message is the engine's English, except the two this door makes itself, which carry the window's language.
import type { ContractError, ContractEvent, RequestOf, ResponseOf, Result, TreasuryBridge, WindowMethodName } from '../../electron/contract';
import { displaySafeBridge } from '../../electron/contract/display-bridge';
import { currentLanguage, isLanguage, t, type Language } from './i18n';

export type { ContractError, ContractEvent, Result };

/** An error the window made itself (no engine answered): its message is in the window's language, not English. */
export interface WindowError extends ContractError {
  readonly language: Language;
}

/** The language an error's message is written in: the engine's are English; one the window made says its own. */
export function messageLanguage(error: ContractError): Language {
  const language = (error as Partial<WindowError>).language;
  return isLanguage(language) ? language : 'en';
}

type LockedListener = (error: ContractError) => void;
const lockedListeners = new Set<LockedListener>();

const safeBridges = new WeakMap<TreasuryBridge, TreasuryBridge>();

/** window.treasury behind the display-safety wrapper (made once per bridge). */
function bridge(): TreasuryBridge | undefined {
  const raw = (window as unknown as { treasury?: TreasuryBridge }).treasury;
  if (raw === undefined) return undefined;
  let safe = safeBridges.get(raw);
  if (safe === undefined) {
    safe = displaySafeBridge(raw);
    safeBridges.set(raw, safe);
  }
  return safe;
}

function failure(code: ContractError['code'], message: string): { ok: false; error: WindowError } {
  return { ok: false, error: { code, message, language: currentLanguage() } };
}

/** Calls a contract method by name; the answer is always a Result. A `locked` answer also tells the session store. */
export async function call<M extends WindowMethodName>(method: M, request: RequestOf<M>): Promise<Result<ResponseOf<M>>> {
  const treasury = bridge();
  if (treasury === undefined) {
    return failure('internal', t('shell.api.notConnected'));
  }
  let result: Result<ResponseOf<M>>;
  try {
    result = await treasury.call(method, request);
  } catch {
    return failure('internal', t('shell.api.unreachable', { method }));
  }
  if (!result.ok && result.error.code === 'locked') for (const listener of lockedListeners) listener(result.error);
  return result;
}

/** Subscribes to engine events; returns the unsubscribe function (a no-op without a bridge). */
export function onEvent(listener: (event: ContractEvent) => void): () => void {
  const treasury = bridge();
  if (treasury === undefined) return () => undefined;
  return treasury.onEvent(listener);
}

/** Called whenever any method answers `locked` (the idle lock struck between two screens' refreshes). */
export function onLockedError(listener: LockedListener): () => void {
  lockedListeners.add(listener);
  return () => lockedListeners.delete(listener);
}

/** The value of an ok Result, or undefined for an error. */
export function valueOf<T>(result: Result<T>): T | undefined {
  return result.ok ? result.value : undefined;
}
