// A face's bridge made safe to show (issue 9, item 10): every answer (value and error, with its message, field
// messages and service reason) and every event payload has its control and text-direction characters escaped as
// ⟨U+001B⟩-style marks (display-text.ts) before any store or component sees it. Identifiers the engine hands out (ids, cursors,
// userOrders, addresses, names) never contain such characters, so they come through unchanged and can be sent back.
import type { TreasuryBridge, WindowCall } from './api';
import type { ContractEvent } from './events';
import { escapeUnsafeDeep } from './display-text';

/** Wraps `bridge` so that nothing it answers or emits carries an unsafe character raw. */
export function displaySafeBridge(bridge: TreasuryBridge): TreasuryBridge {
  const call: WindowCall = async (method, request) => escapeUnsafeDeep(await bridge.call(method, request));
  return {
    call,
    onEvent: (listener: (event: ContractEvent) => void) => bridge.onEvent((event) => listener(escapeUnsafeDeep(event))),
  };
}
