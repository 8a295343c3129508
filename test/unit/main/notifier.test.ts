// Main's notifier (electron/main/notifier.ts) over a stubbed engine and shell: a notice is shown only to the operator signed in at this workstation
// when the engine names them among its recipients; still to them while the idle lock holds, then without amounts; to
// nobody after a profile switch; a click shows the window and sends it to the item; the approvals count follows the
// operator, and only the latest answer is reported.
import { describe, expect, it, vi } from 'vitest';
import { ok, type ContractEvent, type DeskNotification, type SessionState } from '../../../electron/contract';
import type { DesktopNotice } from '../../../electron/main/desktop-handlers';
import { afterSessionChange, noticeFor, startNotifier } from '../../../electron/main/notifier';

const session = (fields: Partial<SessionState>): SessionState => ({ locked: false, operator: null, lockTimeoutSeconds: 900, reportingTimeZone: 'UTC', profile: 'main', isDemo: false, signsLabelsUntil: null, ...fields });

function notification(fields: Partial<DeskNotification> = {}): DeskNotification {
  return {
    id: 'main:approval:12',
    kind: 'approvalWaiting',
    profile: 'main',
    title: 'A withdrawal is waiting for your approval',
    body: 'carol requests 1250.000001 USDT on TRON (request 12).',
    discreetBody: 'A withdrawal request is waiting for your approval.',
    recipients: ['Bob', 'alice'],
    target: { kind: 'withdrawal', id: '12' },
    at: 1,
    ...fields,
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** An engine that answers session/state and notifications/waiting (per operator), and lets the test emit events. */
function fakeEngine(initial: SessionState, waiting: Record<string, number> = {}) {
  const listeners = new Set<(event: ContractEvent) => void>();
  const asked: string[] = [];
  const engine = {
    handlers: {
      'session/state': vi.fn(async () => ok(initial)),
      'notifications/waiting': vi.fn(async ({ operator }: { operator: string }) => {
        asked.push(operator);
        return ok({ operator, approvals: waiting[operator.toLowerCase()] ?? 0 });
      }),
    },
    onEvent: (listener: (event: ContractEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { engine, asked, emit: (event: ContractEvent) => listeners.forEach((listener) => listener(event)), listeners };
}

function fakeShell() {
  const shown: DesktopNotice[] = [];
  return { shown, shell: { showNotification: vi.fn((notice: DesktopNotice) => void shown.push(notice)), showMainWindow: vi.fn() } };
}

describe('who sees a notice', () => {
  it('only an operator signed in here whom the notice names, in any case; the discreet text while locked', () => {
    const unlocked = { profile: 'main', operator: 'bob', locked: false };
    expect(noticeFor(notification(), unlocked)).toEqual({ title: 'A withdrawal is waiting for your approval', body: 'carol requests 1250.000001 USDT on TRON (request 12).' });
    expect(noticeFor(notification(), { ...unlocked, locked: true })?.body).toBe('A withdrawal request is waiting for your approval.');
    expect(noticeFor(notification(), { ...unlocked, operator: 'carol' })).toBeNull();
    expect(noticeFor(notification(), { ...unlocked, operator: null })).toBeNull();
    expect(noticeFor(notification({ profile: 'other' }), unlocked)).toBeNull();
  });

  it('keeps the operator through the idle lock until someone else unlocks; forgets them with the profile', () => {
    let state = afterSessionChange({ profile: null, operator: null, locked: true }, session({ operator: 'bob' }));
    expect(state).toEqual({ profile: 'main', operator: 'bob', locked: false });
    state = afterSessionChange(state, session({ locked: true, operator: null }));
    expect(state).toEqual({ profile: 'main', operator: 'bob', locked: true });
    state = afterSessionChange(state, session({ operator: 'alice' }));
    expect(state).toEqual({ profile: 'main', operator: 'alice', locked: false });
    state = afterSessionChange(state, session({ profile: 'demo', operator: null }));
    expect(state).toEqual({ profile: 'demo', operator: null, locked: false });
  });
});

describe('the notifier', () => {
  it('shows what the engine raises for the operator signed in here, and nothing for anyone else', async () => {
    const { engine, emit } = fakeEngine(session({ operator: 'bob' }));
    const { shell, shown } = fakeShell();
    const windows: ContractEvent[] = [];
    const notifier = startNotifier({ engine, shell, tellWindows: (event) => windows.push(event) });
    await settle();
    expect(notifier.state()).toEqual({ profile: 'main', operator: 'bob', locked: false });

    emit({ type: 'notification/raised', notification: notification() });
    emit({ type: 'notification/raised', notification: notification({ id: 'main:approval:13', recipients: ['alice'] }) });
    expect(shown.map((notice) => notice.id)).toEqual(['main:approval:12']);
    expect(shown[0]).toMatchObject({ title: 'A withdrawal is waiting for your approval', body: 'carol requests 1250.000001 USDT on TRON (request 12).' });

    // Locked: still bob's workstation, but the notice leaves out amounts and names.
    emit({ type: 'session/changed', session: session({ locked: true, operator: null }) });
    emit({ type: 'notification/raised', notification: notification({ id: 'main:final:9', kind: 'orderFinal', body: '25 USDT paid out', discreetBody: 'A withdrawal was paid out.' }) });
    expect(shown.at(-1)).toMatchObject({ id: 'main:final:9', body: 'A withdrawal was paid out.' });

    // Clicking shows the window and takes it to the item.
    shown[0]?.onClick();
    expect(shell.showMainWindow).toHaveBeenCalledTimes(1);
    expect(windows).toEqual([{ type: 'desktop/openItem', target: { kind: 'withdrawal', id: '12' } }]);

    // Another profile: nobody is signed in for it, nothing is shown.
    emit({ type: 'session/changed', session: session({ profile: 'demo', operator: null }) });
    emit({ type: 'notification/raised', notification: notification({ id: 'demo:approval:1', profile: 'demo', recipients: ['bob'] }) });
    expect(shown).toHaveLength(2);

    notifier.stop();
    emit({ type: 'session/changed', session: session({ operator: 'bob' }) });
    emit({ type: 'notification/raised', notification: notification({ id: 'main:approval:14' }) });
    expect(shown).toHaveLength(2);
  });

  it('shows nothing before anyone has unlocked the desk at this workstation', async () => {
    const { engine, emit } = fakeEngine(session({ locked: true, operator: null }));
    const { shell, shown } = fakeShell();
    startNotifier({ engine, shell, tellWindows: () => undefined });
    await settle();
    emit({ type: 'notification/raised', notification: notification() });
    expect(shown).toEqual([]);
  });

  it('reports the approvals waiting for the operator signed in here as they change', async () => {
    const { engine, emit, asked } = fakeEngine(session({ locked: true, operator: null }), { bob: 2, alice: 1 });
    const { shell } = fakeShell();
    const counts: Array<[number, string | null]> = [];
    const notifier = startNotifier({ engine, shell, tellWindows: () => undefined, onApprovalsWaiting: (count, operator) => counts.push([count, operator]) });
    await settle();
    expect(counts).toEqual([[0, null]]);
    expect(asked).toEqual([]);
    emit({ type: 'session/changed', session: session({ operator: 'bob' }) });
    await settle();
    emit({ type: 'withdrawals/changed', id: '12' });
    await settle();
    emit({ type: 'session/changed', session: session({ operator: 'alice' }) });
    await settle();
    expect(counts).toEqual([[0, null], [2, 'bob'], [2, 'bob'], [1, 'alice']]);
    expect(asked).toEqual(['bob', 'bob', 'alice']);
    await notifier.refreshCount();
    expect(counts.at(-1)).toEqual([1, 'alice']);
  });

  it('reports only the latest count when answers come back out of order', async () => {
    const { engine, emit } = fakeEngine(session({ operator: 'bob' }));
    const answers: Array<(approvals: number) => void> = [];
    engine.handlers['notifications/waiting'].mockImplementation(
      ({ operator }: { operator: string }) => new Promise((resolve) => answers.push((approvals) => resolve(ok({ operator, approvals })))),
    );
    const counts: number[] = [];
    startNotifier({ engine, shell: fakeShell().shell, tellWindows: () => undefined, onApprovalsWaiting: (count) => counts.push(count) });
    await settle();
    emit({ type: 'withdrawals/changed', id: null });
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]?.(5);
    await settle();
    answers[0]?.(4);
    await settle();
    expect(counts).toEqual([5]);
  });
});
