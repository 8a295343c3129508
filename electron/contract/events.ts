// Events pushed to the faces: the engine's small notices (renderer, harness, CLI watch; the UI re-reads via methods),
// and the desktop shell's own on the same channel: requests from its app menu (open a screen, focus the search box)
// and a clicked notice (desktop/openItem).
import type { DeepLinkIntent } from './deep-links';
import type { CallbackListenerState, ConnectionState, SessionState, SyncProgress } from './dto';
import type { DeskNotification, NotificationTarget } from './notifications';
import type { Screen } from './screens';
import type { UpdateReadyView } from './desktop';

export type ContractEvent =
  | { readonly type: 'connection/changed'; readonly connection: ConnectionState }
  | { readonly type: 'sync/progress'; readonly progress: SyncProgress | null }
  | { readonly type: 'deposits/changed'; readonly newDeposits: number }
  | { readonly type: 'balances/changed' }
  | { readonly type: 'withdrawals/changed'; readonly id: string | null }
  | { readonly type: 'callbacks/changed'; readonly listener: CallbackListenerState }
  | { readonly type: 'session/changed'; readonly session: SessionState }
  | { readonly type: 'operators/changed' }
  /** A label or note was set or imported (issue 13). */
  | { readonly type: 'labels/changed' }
  /** A team desk's connection, verified head or refusals changed (team/status says how). */
  | { readonly type: 'team/changed' }
  /** The app menu's Go menu: show this screen. */
  | { readonly type: 'desktop/navigate'; readonly screen: Screen }
  /** The app menu's Search item: focus the current screen's search box. */
  | { readonly type: 'desktop/focusSearch' }
  /** A notice for some operators (recipients); the desktop shows it to the one signed in at this workstation. */
  | { readonly type: 'notification/raised'; readonly notification: DeskNotification }
  /** From the shell, not the engine: a notice was clicked; the window shows what it is about. */
  | { readonly type: 'desktop/openItem'; readonly target: NotificationTarget }
  /** From the shell: a treasury-desk:// link was opened (deep-links.ts); the window shows its record, or why not. */
  | { readonly type: 'desktop/openLink'; readonly link: DeepLinkIntent }
  /** From the shell: a verified update is ready (docs/desktop.md); the operator chooses when to restart. */
  | { readonly type: 'desktop/updateReady'; readonly update: UpdateReadyView };

export type ContractEventType = ContractEvent['type'];
export const EVENT_CHANNEL = 'treasury/event';
