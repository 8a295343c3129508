// A face's bridge made safe to show (issue 9, item 10): every answer (value and error, with its message, field
// messages and service reason) and every event payload has its control and text-direction characters escaped as
// ⟨U+001B⟩-style marks (display-text.ts) before any store or component sees it. Identifiers the engine hands out (ids, cursors,
// userOrders, addresses, names) never contain such characters, so they come through unchanged and can be sent back.
// Every string is a single-line field on a screen (newlines shown as ⟨U+000A⟩, so a memo cannot fake a row or a tooltip
// line), except the answers of MULTI_LINE_ANSWERS, whose text is a block by nature (a PEM key, a printable page).
import type { TreasuryBridge, WindowCall, WindowMethodName } from './api';
import type { ContractEvent } from './events';
import { escapeUnsafeDeep } from './display-text';

/** Methods whose answers keep their newlines (still escaped otherwise): a generated public key, a printable statement. */
const MULTI_LINE_ANSWERS: ReadonlySet<WindowMethodName> = new Set<WindowMethodName>(['profiles/generateKey', 'statements/html']);

/** Wraps `bridge` so that nothing it answers or emits carries an unsafe character raw. */
export function displaySafeBridge(bridge: TreasuryBridge): TreasuryBridge {
  const call: WindowCall = async (method, request) => escapeUnsafeDeep(await bridge.call(method, request), !MULTI_LINE_ANSWERS.has(method));
  return {
    call,
    onEvent: (listener: (event: ContractEvent) => void) => bridge.onEvent((event) => listener(escapeUnsafeDeep(event, true))),
  };
}
