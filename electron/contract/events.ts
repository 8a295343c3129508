// Events the engine pushes to every face (renderer, harness, CLI watch): small notices; the UI re-reads via methods.
import type { CallbackListenerState, ConnectionState, SessionState, SyncProgress } from './dto';

export type ContractEvent =
  | { readonly type: 'connection/changed'; readonly connection: ConnectionState }
  | { readonly type: 'sync/progress'; readonly progress: SyncProgress | null }
  | { readonly type: 'deposits/changed'; readonly newDeposits: number }
  | { readonly type: 'balances/changed' }
  | { readonly type: 'withdrawals/changed'; readonly id: string | null }
  | { readonly type: 'callbacks/changed'; readonly listener: CallbackListenerState }
  | { readonly type: 'session/changed'; readonly session: SessionState }
  | { readonly type: 'operators/changed' };

export type ContractEventType = ContractEvent['type'];
export const EVENT_CHANNEL = 'treasury/event';
