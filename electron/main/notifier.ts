// Shows the engine's notifications on this workstation: only to the operator signed in here (the one who last
// unlocked the desk; still them while the idle lock holds, until another operator unlocks or the profile changes),
// only those whose recipients name them (the engine has applied their preferences), and while the desk is locked
// without amounts, names or reasons (the notice's discreet body). Clicking one shows the window and takes it to what
// the notice is about. Also keeps the count of approvals waiting for that operator (the tray and the badge).
// Runs over a DesktopShell: Electron in the app, the harness's recording double under e2e.
import type { ContractEvent, DeskNotification, Result, SessionState, TreasuryHandlers } from '../contract';
import { appLog } from '../core/log';
import type { DesktopShell } from './desktop-handlers';

/** What the notifier needs of the engine. */
export interface NotifierEngine {
  readonly handlers: Pick<TreasuryHandlers, 'session/state' | 'notifications/waiting'>;
  onEvent(listener: (event: ContractEvent) => void): () => void;
}

export interface NotifierOptions {
  readonly engine: NotifierEngine;
  readonly shell: Pick<DesktopShell, 'showNotification' | 'showMainWindow'>;
  /** Sends a shell event (desktop/openItem) to the windows. */
  readonly tellWindows: (event: ContractEvent) => void;
  /** Told the number of approvals waiting for the workstation's operator (0 without one) whenever it may have changed. */
  readonly onApprovalsWaiting?: (count: number, operator: string | null) => void;
}

/** Who the workstation's notices are for, and whether the desk is locked. */
export interface WorkstationState {
  readonly profile: string | null;
  readonly operator: string | null;
  readonly locked: boolean;
}

export interface Notifier {
  state(): WorkstationState;
  /** Re-reads the approvals count now (the tray's "Sync now", tests); resolves once it was reported. */
  refreshCount(): Promise<void>;
  stop(): void;
}

/** Whether `notification` is for the workstation's operator, and what to show of it (null: nothing). */
export function noticeFor(notification: DeskNotification, state: WorkstationState): { readonly title: string; readonly body: string } | null {
  if (state.operator === null || state.profile !== notification.profile) return null;
  const operator = state.operator.toLowerCase();
  if (!notification.recipients.some((recipient) => recipient.toLowerCase() === operator)) return null;
  return { title: notification.title, body: state.locked ? notification.discreetBody : notification.body };
}

/** The workstation's state after a session change: a new unlock names the operator; a lock keeps them; a new profile forgets them. */
export function afterSessionChange(before: WorkstationState, session: SessionState): WorkstationState {
  if (session.profile !== before.profile) return { profile: session.profile, operator: session.operator, locked: session.locked };
  return { profile: session.profile, operator: session.operator ?? before.operator, locked: session.locked };
}

export function startNotifier(options: NotifierOptions): Notifier {
  const { engine, shell } = options;
  let state: WorkstationState = { profile: null, operator: null, locked: true };
  let stopped = false;
  let heardSession = false;
  let counting = 0;

  async function refreshCount(): Promise<void> {
    const ticket = ++counting;
    const operator = state.operator;
    let count = 0;
    if (operator !== null) {
      const answer = await engine.handlers['notifications/waiting']({ operator }).catch(() => null);
      count = answer?.ok === true && Number.isSafeInteger(answer.value.approvals) ? answer.value.approvals : 0;
    }
    // Only the latest question's answer is reported (answers may come back out of order).
    if (ticket === counting && !stopped) options.onApprovalsWaiting?.(count, operator);
  }

  function applySession(session: SessionState): void {
    state = afterSessionChange(state, session);
    void refreshCount();
  }

  function show(notification: DeskNotification): void {
    const notice = noticeFor(notification, state);
    if (notice === null) return;
    const target = notification.target;
    try {
      shell.showNotification({
        id: notification.id,
        title: notice.title,
        body: notice.body,
        onClick: () => {
          shell.showMainWindow();
          if (target !== undefined) options.tellWindows({ type: 'desktop/openItem', target });
        },
      });
    } catch (error) {
      appLog.warn('notifier: a notification could not be shown', { id: notification.id, error });
    }
  }

  const stopEvents = engine.onEvent((event) => {
    if (stopped) return;
    switch (event.type) {
      case 'session/changed':
        heardSession = true;
        applySession(event.session);
        return;
      case 'notification/raised':
        show(event.notification);
        return;
      case 'withdrawals/changed':
      case 'operators/changed':
        void refreshCount();
        return;
      default:
        return;
    }
  });
  void engine.handlers['session/state']({}).then((answer: Result<SessionState>) => {
    // A session/changed that came first is newer than this answer.
    if (answer.ok && !stopped && !heardSession) applySession(answer.value);
  });

  return {
    state: () => state,
    refreshCount,
    stop() {
      stopped = true;
      stopEvents();
    },
  };
}
