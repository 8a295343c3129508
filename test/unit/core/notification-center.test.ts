// The notification centre (core/notifications/center.ts) over a real store, a roster from signed rows and a fake clock:
// the connection is judged where a sync ends (not while its steps flip it), a blip that heals before the delay says
// nothing, a real outage says so once and its end once; what happened before the desk started notifying for a profile
// (old requests, old deposits, orders stuck long ago) is claimed silently and never raised; deposits are read only
// while someone wants deposit notices; a stuck order is raised once per status.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState, ContractEvent, DeskNotification } from '../../../electron/contract';
import { DeskNotifications } from '../../../electron/core/notifications/center';
import { type StoreDatabase } from '../../../electron/core/store/database';
import { insertOrTouchDeposit } from '../../../electron/core/deposits/deposits-table';
import { claimNotification, getNotificationCursor, isNotificationClaimed, setNotificationPreferences } from '../../../electron/core/notifications/notifications-table';
import { createWithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import type { StuckOrder, WithdrawalWatchdog } from '../../../electron/core/withdrawals/watchdog';
import { Chain, person } from '../../support/roster-chain';
import { depositRecord, PROFILE, seededDatabase, useTempDir } from '../store/helpers';

const temp = useTempDir('td-notify-center-');
const T0 = 1_800_000_000_000;
const MINUTE = 60_000;

interface Fixture {
  readonly db: StoreDatabase;
  readonly center: DeskNotifications;
  readonly raised: DeskNotification[];
  advance(ms: number): void;
  setConnection(state: Partial<ConnectionState>): void;
  emit(event: ContractEvent): void;
  stuck(stuck: readonly StuckOrder[]): void;
}

const running: DeskNotifications[] = [];
afterEach(() => {
  for (const center of running.splice(0)) center.stop();
});

/** Founders alice and frank, bob (approver) and dave (viewer) enrolled by both; a centre started at T0 on a fresh desk. */
function fixture(options: { readonly db?: StoreDatabase; readonly startAt?: number } = {}): Fixture {
  const db = options.db ?? seededDatabase(temp);
  const [alice, frank, bob, dave] = [person('alice'), person('frank'), person('bob'), person('dave')];
  const chain = new Chain();
  chain.found(alice, frank);
  chain.enrol(alice, bob, 'approver', frank);
  chain.enrol(alice, dave, 'viewer', frank);
  const roster = chain.roster();
  let now = options.startAt ?? T0;
  let connection: ConnectionState = { online: true, reason: null, message: null, since: null, lastContactAt: null };
  const listeners = new Set<(event: ContractEvent) => void>();
  const raised: DeskNotification[] = [];
  let stuckListener: ((profile: string, stuck: readonly StuckOrder[]) => void) | undefined;
  const context = {
    db,
    now: () => now,
    activeProfileName: () => PROFILE,
    activeProfile: () => ({ name: PROFILE, merchantId: 'M-1001' }),
    trail: { roster: () => roster },
    get connection() {
      return { current: connection };
    },
    onEvent: (listener: (event: ContractEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event: ContractEvent) => {
      if (event.type === 'notification/raised') raised.push(event.notification);
      for (const listener of listeners) listener(event);
    },
  } as unknown as ConstructorParameters<typeof DeskNotifications>[0];
  const watchdog = {
    onStuck: (listener: typeof stuckListener) => {
      stuckListener = listener;
      return () => undefined;
    },
  } as unknown as WithdrawalWatchdog;
  const center = new DeskNotifications(context, watchdog, { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 2 * MINUTE });
  center.start();
  running.push(center);
  return {
    db,
    center,
    raised,
    advance: (ms) => void (now += ms),
    setConnection: (state) => void (connection = { ...connection, ...state }),
    emit: (event) => context.emit(event),
    stuck: (stuck) => stuckListener?.(PROFILE, stuck),
  };
}

const offline = (since: number): Partial<ConnectionState> => ({ online: false, reason: 'network', message: 'connect ECONNREFUSED', since });
const ONLINE: Partial<ConnectionState> = { online: true, reason: null, message: null, since: null };

describe('the connection', () => {
  it('says nothing of flips while a sync runs, nor of a blip that heals before the delay', () => {
    const desk = fixture();
    // A long sync whose signed steps fail while its public ones succeed: judged only where it ends.
    desk.emit({ type: 'sync/progress', progress: { resource: 'balances', done: 0, total: null, message: 'syncing' } });
    desk.setConnection(offline(T0));
    desk.emit({ type: 'connection/changed', connection: { online: false, reason: 'network', message: 'x', since: T0, lastContactAt: null } });
    desk.advance(3 * MINUTE);
    desk.setConnection(ONLINE);
    desk.emit({ type: 'sync/progress', progress: null });
    // Offline where one sync ends, online where the next ends, a minute later: a blip.
    desk.setConnection(offline(T0 + 3 * MINUTE));
    desk.emit({ type: 'sync/progress', progress: null });
    desk.advance(MINUTE);
    desk.setConnection(ONLINE);
    desk.emit({ type: 'sync/progress', progress: null });
    desk.advance(5 * MINUTE);
    desk.emit({ type: 'sync/progress', progress: null });
    expect(desk.raised).toEqual([]);
  });

  it('says an outage once, counted from the first sync that ended offline, and its end once', () => {
    const desk = fixture();
    desk.setConnection(offline(T0));
    desk.emit({ type: 'sync/progress', progress: null });
    expect(desk.raised).toEqual([]);
    // The next sync flips the connection online and offline again (a new `since`): still the same outage.
    desk.advance(MINUTE);
    desk.setConnection(offline(T0 + MINUTE));
    desk.emit({ type: 'sync/progress', progress: null });
    desk.advance(MINUTE + 1);
    desk.emit({ type: 'sync/progress', progress: null });
    desk.advance(MINUTE);
    desk.emit({ type: 'sync/progress', progress: null });
    expect(desk.raised.map((notice) => [notice.id, notice.kind])).toEqual([[`${PROFILE}:offline:${T0}`, 'offline']]);
    expect(desk.raised[0]?.body).toContain('Offline for 2 min');
    expect(desk.raised[0]?.body).not.toContain('ECONNREFUSED');
    expect(desk.raised[0]?.recipients).toEqual(['alice', 'frank', 'bob', 'dave']);

    desk.setConnection(ONLINE);
    desk.emit({ type: 'sync/progress', progress: null });
    desk.emit({ type: 'sync/progress', progress: null });
    expect(desk.raised.map((notice) => notice.kind)).toEqual(['offline', 'online']);
    expect(desk.raised[1]?.body).toBe('The payment service answers again, after 3 min offline.');
  });

  it('tells only those who want it', () => {
    const desk = fixture();
    setNotificationPreferences(desk.db, PROFILE, 'dave', { approvalWaiting: true, orderFinal: 'mine', orderStuck: false, connection: false, depositThresholds: {} }, T0);
    desk.setConnection(offline(T0));
    desk.emit({ type: 'sync/progress', progress: null });
    desk.advance(3 * MINUTE);
    desk.emit({ type: 'sync/progress', progress: null });
    expect(desk.raised[0]?.recipients).toEqual(['alice', 'frank', 'bob']);
  });
});

describe('history from before the desk notified', () => {
  it('claims old requests and old stuck orders silently, raises what came after', () => {
    const db = seededDatabase(temp);
    const old = createWithdrawalRequest(db, { profile: PROFILE, currency: 'trx.usdt', amount: '5', toAddress: 'T', withdrawType: 'normal', userOrder: 'td-old', initiator: 'carol', state: 'submitted' }, T0 - 10 * MINUTE);
    const desk = fixture({ db });
    desk.center.review();
    expect(getNotificationCursor(db, PROFILE, 'since')).toBe(T0);
    const stuckLongAgo = { request: old, status: 'pendingConfirm', since: T0 - 40 * MINUTE, thresholdMs: 30 * MINUTE, stuckForMs: 40 * MINUTE } as const;
    const stuckNow = { ...stuckLongAgo, since: T0 - 29 * MINUTE, status: 'pendingTransfer' } as const;
    desk.stuck([stuckLongAgo, stuckNow]);
    desk.stuck([stuckLongAgo, stuckNow]);
    expect(isNotificationClaimed(db, PROFILE, `stuck:${old.id}:pendingConfirm`)).toBe(true);
    expect(desk.raised.map((notice) => notice.id)).toEqual([`${PROFILE}:stuck:${old.id}:pendingTransfer`]);
    // Stuck notices go to admins and approvers by default.
    expect(desk.raised[0]?.recipients).toEqual(['alice', 'frank', 'bob']);
  });

  it('starts the deposit cursor at the last deposit seen before, and reads deposits only while someone wants them', () => {
    const db = seededDatabase(temp);
    insertOrTouchDeposit(db, PROFILE, depositRecord(1, { currency: 'trx.usdt', amount: '5000' }), 'query', T0 - MINUTE);
    const desk = fixture({ db });
    desk.center.review();
    const first = getNotificationCursor(db, PROFILE, 'deposits');
    // Nobody wants deposit notices: a new deposit is skipped without being read.
    insertOrTouchDeposit(db, PROFILE, depositRecord(2, { currency: 'trx.usdt', amount: '7000' }), 'query', T0 + MINUTE);
    desk.center.review();
    expect(getNotificationCursor(db, PROFILE, 'deposits')).toBeGreaterThan(first ?? 0);
    expect(desk.raised).toEqual([]);
    // bob wants trx.usdt above 6000: the next one above is told, once; one at 6000 exactly is not.
    setNotificationPreferences(db, PROFILE, 'bob', { approvalWaiting: true, orderFinal: 'mine', orderStuck: true, connection: true, depositThresholds: { 'trx.usdt': '6000' } }, T0);
    const above = insertOrTouchDeposit(db, PROFILE, depositRecord(3, { currency: 'trx.usdt', amount: '6000.000001' }), 'query', T0 + 2 * MINUTE);
    insertOrTouchDeposit(db, PROFILE, depositRecord(4, { currency: 'trx.usdt', amount: '6000' }), 'query', T0 + 2 * MINUTE);
    desk.center.review();
    desk.center.review();
    expect(desk.raised.map((notice) => [notice.id, notice.recipients])).toEqual([[`${PROFILE}:deposit:${above.id}`, ['bob']]]);
  });

  it('never raises an occurrence another process claimed first', () => {
    const db = seededDatabase(temp);
    const desk = fixture({ db });
    desk.center.review();
    const request = createWithdrawalRequest(db, { profile: PROFILE, currency: 'trx.usdt', amount: '5', toAddress: 'T', withdrawType: 'normal', userOrder: 'td-new', initiator: 'carol', state: 'submitted' }, T0 + MINUTE);
    expect(claimNotification(db, PROFILE, `stuck:${request.id}:pendingTransfer`, 'orderStuck', true, T0)).toBe(true);
    desk.stuck([{ request, status: 'pendingTransfer', since: T0, thresholdMs: MINUTE, stuckForMs: 2 * MINUTE }]);
    expect(desk.raised).toEqual([]);
  });
});
