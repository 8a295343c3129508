// Events the engine pushes to every face (renderer, harness, CLI watch): small notices; the UI re-reads via methods.
// The shell adds its own (navigation/open) on the same channel.
import type { CallbackListenerState, ConnectionState, SessionState, SyncProgress } from './dto';
import type { DeskNotification, NotificationTarget } from './notifications';

export type ContractEvent =
  | { readonly type: 'connection/changed'; readonly connection: ConnectionState }
  | { readonly type: 'sync/progress'; readonly progress: SyncProgress | null }
  | { readonly type: 'deposits/changed'; readonly newDeposits: number }
  | { readonly type: 'balances/changed' }
  | { readonly type: 'withdrawals/changed'; readonly id: string | null }
  | { readonly type: 'callbacks/changed'; readonly listener: CallbackListenerState }
  | { readonly type: 'session/changed'; readonly session: SessionState }
  | { readonly type: 'operators/changed' }
  /** A notice for some operators (recipients); the desktop shows it to the one signed in at this workstation. */
  | { readonly type: 'notification/raised'; readonly notification: DeskNotification }
  /** From the shell, not the engine: a notice was clicked; the window shows what it is about. */
  | { readonly type: 'navigation/open'; readonly target: NotificationTarget };

export type ContractEventType = ContractEvent['type'];
export const EVENT_CHANNEL = 'treasury/event';
