// The withdrawal watchdog (core/withdrawals/watchdog.ts) with a fake clock: an order is stuck once it has stayed in a
// watched status longer than that status's threshold (pendingConfirm 30 min, pendingTransfer 2 h,
// pendingFinancialConfirmation 24 h, pendingCallback 2 h), counted from when the status was first observed; a create
// left unconfirmed (submitting, or submitUnknown after an unsigned failure) is timed as pendingConfirm; the desk's overrides are checked, and bad ones refused.
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../electron/core/kernel/errors';
import { getSetting, setSetting } from '../../../electron/core/profiles/settings-table';
import { type WithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import {
  DEFAULT_STUCK_THRESHOLDS,
  findStuckOrders,
  nextStepsFor,
  setStuckThresholds,
  stuckFlag,
  STUCK_THRESHOLDS_SETTING,
  stuckThresholds,
  watchedStatusOf,
} from '../../../electron/core/withdrawals/watchdog';
import { seededDatabase, useTempDir } from '../store/helpers';

const temp = useTempDir('td-watchdog-');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = 1_800_000_000_000;

let nextId = 1;
function order(state: WithdrawalRequest['state'], orderStatus: string | null, since: number): WithdrawalRequest {
  const id = nextId++;
  return {
    id,
    profile: 'main',
    currency: 'trx.usdt',
    amount: '10',
    toAddress: 'T',
    withdrawType: 'normal',
    memo: null,
    userOrder: `td-${id}`,
    initiator: 'carol',
    state,
    requiredApprovals: 1,
    intentJson: null,
    intentHash: null,
    fingerprint: null,
    requestSeq: null,
    batchHash: null,
    lastError: null,
    createdAt: T0 - 48 * HOUR,
    updatedAt: since,
    apiOrder: orderStatus === null ? null : `A${id}`,
    orderStatus,
    orderStatusAt: orderStatus === null ? null : since,
    fee: null,
    txid: null,
    raw: null,
  };
}

const stuckAt = (now: number, ...requests: WithdrawalRequest[]): string[] =>
  findStuckOrders(requests, DEFAULT_STUCK_THRESHOLDS, now).map((stuck) => `${stuck.request.userOrder}:${stuck.status}`);

describe('which orders are stuck', () => {
  it('each watched status against its own threshold, counted from when the status was first seen', () => {
    const confirm = order('submitted', 'pendingConfirm', T0);
    const transfer = order('submitted', 'pendingTransfer', T0);
    const financial = order('submitted', 'pendingFinancialConfirmation', T0);
    const callback = order('submitted', 'pendingCallback', T0);
    const all = [confirm, transfer, financial, callback];
    expect(stuckAt(T0 + 30 * MINUTE, ...all)).toEqual([]);
    expect(stuckAt(T0 + 30 * MINUTE + 1, ...all)).toEqual([`${confirm.userOrder}:pendingConfirm`]);
    expect(stuckAt(T0 + 2 * HOUR, ...all)).toEqual([`${confirm.userOrder}:pendingConfirm`]);
    expect(stuckAt(T0 + 2 * HOUR + 1, ...all)).toEqual([`${confirm.userOrder}:pendingConfirm`, `${transfer.userOrder}:pendingTransfer`, `${callback.userOrder}:pendingCallback`]);
    expect(stuckAt(T0 + 24 * HOUR + 1, ...all)).toHaveLength(4);
    const [found] = findStuckOrders([transfer], DEFAULT_STUCK_THRESHOLDS, T0 + 3 * HOUR);
    expect(found).toMatchObject({ status: 'pendingTransfer', since: T0, thresholdMs: 2 * HOUR, stuckForMs: 3 * HOUR });
  });

  it('a create not confirmed yet is timed as pendingConfirm from the move to submitting', () => {
    const sending = order('submitting', null, T0);
    expect(watchedStatusOf(sending)).toEqual({ status: 'pendingConfirm', since: T0 });
    expect(stuckAt(T0 + 31 * MINUTE, sending)).toEqual([`${sending.userOrder}:pendingConfirm`]);
  });

  it('a create answered with an unsigned failure (submitUnknown) is timed the same way until checkWithdrawOrder decides', () => {
    const unknown = order('submitUnknown', null, T0);
    expect(watchedStatusOf(unknown)).toEqual({ status: 'pendingConfirm', since: T0 });
    expect(stuckAt(T0 + 30 * MINUTE, unknown)).toEqual([]);
    expect(stuckAt(T0 + 31 * MINUTE, unknown)).toEqual([`${unknown.userOrder}:pendingConfirm`]);
    expect(watchedStatusOf(order('submitFailed', null, T0))).toBeNull();
  });

  it('never an order that is final, not handed over, or in a pending status it does not know', () => {
    const week = T0 + 7 * 24 * HOUR;
    expect(stuckAt(week, order('completed', 'success', T0), order('approved', null, T0), order('awaitingApproval', null, T0), order('submitted', 'pendingReview', T0))).toEqual([]);
  });

  it('follows the thresholds it is given', () => {
    const transfer = order('submitted', 'pendingTransfer', T0);
    expect(findStuckOrders([transfer], { ...DEFAULT_STUCK_THRESHOLDS, pendingTransfer: 10 * MINUTE }, T0 + 11 * MINUTE)).toHaveLength(1);
  });
});

describe('what a stuck order’s flag says to do', () => {
  it('explains the status, then checkTransfer on the txid when there is one, then the platform with the apiOrder', () => {
    const transfer = { ...order('submitted', 'pendingCallback', T0), txid: 'a1b2c3' };
    expect(nextStepsFor(transfer, 'pendingCallback')).toEqual([
      'The order is pendingCallback: transfer made, the platform’s final status still pending.',
      `Check the transfer on chain: run checkTransfer on txid a1b2c3 (trx.usdt).`,
      `Contact the platform with apiOrder ${transfer.apiOrder} (userOrder ${transfer.userOrder}).`,
    ]);
    const financial = order('submitted', 'pendingFinancialConfirmation', T0);
    expect(nextStepsFor(financial, 'pendingFinancialConfirmation')).toEqual([
      'The order is pendingFinancialConfirmation: waiting for the finance side to confirm it at the platform.',
      'Ask the person who confirms financial-confirmation orders at the platform to confirm or reject it.',
      `Contact the platform with apiOrder ${financial.apiOrder} (userOrder ${financial.userOrder}).`,
    ]);
    const sending = order('submitting', null, T0);
    expect(nextStepsFor(sending, 'pendingConfirm').at(-1)).toBe(
      `The desk has no platform order number yet: run a sync so checkWithdrawOrder can confirm the order; if it stays unknown, contact the platform with userOrder ${sending.userOrder}.`,
    );
  });

  it('is set only while the order is stuck, with its status, since when, threshold and how long', () => {
    const transfer = order('submitted', 'pendingTransfer', T0);
    expect(stuckFlag(transfer, DEFAULT_STUCK_THRESHOLDS, T0 + 2 * HOUR)).toBeNull();
    expect(stuckFlag(transfer, DEFAULT_STUCK_THRESHOLDS, T0 + 3 * HOUR)).toMatchObject({ status: 'pendingTransfer', since: T0, thresholdMs: 2 * HOUR, stuckForMs: 3 * HOUR });
    expect(stuckFlag(order('completed', 'success', T0), DEFAULT_STUCK_THRESHOLDS, T0 + 99 * HOUR)).toBeNull();
  });
});

describe('the desk’s thresholds', () => {
  it('defaults, each valid override in place of its default, and bad stored values ignored', () => {
    const db = seededDatabase(temp);
    const context = { db, now: () => T0 };
    expect(stuckThresholds(context)).toEqual(DEFAULT_STUCK_THRESHOLDS);
    setSetting(db, STUCK_THRESHOLDS_SETTING, { pendingTransfer: 3 * HOUR, pendingCallback: 5, pendingConfirm: 'soon' }, T0);
    expect(stuckThresholds(context)).toEqual({ ...DEFAULT_STUCK_THRESHOLDS, pendingTransfer: 3 * HOUR });
  });

  it('changes some and keeps the rest; only overrides are stored; out-of-range or unknown ones change nothing', () => {
    const db = seededDatabase(temp);
    const context = { db, now: () => T0 };
    expect(setStuckThresholds(context, { pendingTransfer: 4 * HOUR })).toEqual({ ...DEFAULT_STUCK_THRESHOLDS, pendingTransfer: 4 * HOUR });
    expect(setStuckThresholds(context, { pendingCallback: HOUR })).toEqual({ ...DEFAULT_STUCK_THRESHOLDS, pendingTransfer: 4 * HOUR, pendingCallback: HOUR });
    expect(getSetting(db, STUCK_THRESHOLDS_SETTING)).toEqual({ pendingTransfer: 4 * HOUR, pendingCallback: HOUR });
    for (const bad of [{ pendingTransfer: 30_000 }, { pendingTransfer: 31 * 24 * HOUR }, { pendingTransfer: 1.5 * HOUR + 0.5 }, { pendingReview: HOUR }]) {
      expect(() => setStuckThresholds(context, bad)).toThrow(DeskError);
    }
    expect(getSetting(db, STUCK_THRESHOLDS_SETTING)).toEqual({ pendingTransfer: 4 * HOUR, pendingCallback: HOUR });
    // Back to the default: the override goes.
    setStuckThresholds(context, { pendingTransfer: DEFAULT_STUCK_THRESHOLDS.pendingTransfer });
    expect(getSetting(db, STUCK_THRESHOLDS_SETTING)).toEqual({ pendingCallback: HOUR });
  });
});
