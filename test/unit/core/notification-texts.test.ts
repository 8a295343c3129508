// What notices say (core/notifications/texts.ts): amounts exactly as stored with the currency's name; text from people
// and the network (memos, reasons, names, order numbers) escaped so no control or text-direction character reaches the
// screen, and shortened; the discreet body (a locked desk) carries no amount, name, memo or reason; no address ever.
import { describe, expect, it } from 'vitest';
import { approvalWaitingText, batchFinalText, depositText, duration, offlineText, onlineText, orderFinalText, orderStuckText } from '../../../electron/core/notifications/texts';
import type { Deposit } from '../../../electron/core/deposits/deposits-table';
import type { WithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import { UNSAFE_TEXT_CHARACTERS } from '../../../electron/contract';

const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

const request: WithdrawalRequest = {
  id: 12,
  profile: 'main',
  currency: 'trx.usdt',
  amount: '1250.000001',
  toAddress: ADDRESS,
  withdrawType: 'normal',
  memo: 'salary \u202Eevil\u202C \u001b[31mred',
  userOrder: 'td-20261123-abc',
  initiator: 'carol',
  state: 'awaitingApproval',
  requiredApprovals: 2,
  intentJson: null,
  intentHash: null,
  fingerprint: 'ABCD-EFGH-JKLM-NPQR',
  requestSeq: 7,
  batchHash: null,
  lastError: null,
  createdAt: 1,
  updatedAt: 1,
  apiOrder: null,
  orderStatus: null,
  orderStatusAt: null,
  fee: null,
  txid: null,
  raw: null,
};

describe('a withdrawal waiting for approval', () => {
  const text = approvalWaitingText(request, { initiator: 'carol', fingerprint: 'ABCD-EFGH-JKLM-NPQR', counted: 1, required: 2 });

  it('names who, the exact amount and currency, the fingerprint and the approvals so far', () => {
    expect(text.title).toBe('A withdrawal is waiting for your approval');
    expect(text.body).toContain('carol requests 1250.000001 USDT on TRON (request 12)');
    expect(text.body).toContain('Fingerprint ABCD-EFGH-JKLM-NPQR');
    expect(text.body).toContain('Approvals: 1 of 2');
  });

  it('shows the memo with its control and direction characters as visible marks', () => {
    expect(text.body).toContain('Memo: "salary ⟨U+202E⟩evil⟨U+202C⟩ ⟨U+001B⟩[31mred"');
    for (const part of [text.title, text.body, text.discreetBody]) expect(part).not.toMatch(UNSAFE_TEXT_CHARACTERS);
  });

  it('says nothing of amount, person, memo or destination when discreet, and never names the address', () => {
    expect(text.discreetBody).toBe('A withdrawal request is waiting for your approval. Unlock Treasury Desk to see the details.');
    for (const part of [text.title, text.body, text.discreetBody]) expect(part).not.toContain(ADDRESS);
  });

  it('shortens a long memo', () => {
    const long = approvalWaitingText({ ...request, memo: 'x'.repeat(300) }, { initiator: 'carol', fingerprint: 'F', counted: 0, required: 1 });
    expect(long.body).toContain(`"${'x'.repeat(119)}…"`);
  });
});

describe('final orders', () => {
  it('paid out, refunded and failed, with the exact amount', () => {
    expect(orderFinalText({ ...request, orderStatus: 'success' }, null)).toMatchObject({ title: 'A withdrawal was paid out', body: '1250.000001 USDT on TRON (request 12) was paid out.' });
    expect(orderFinalText({ ...request, orderStatus: 'WithdrawRefund' }, null).title).toBe('A withdrawal was refunded');
    const failed = orderFinalText({ ...request, orderStatus: 'fail' }, null);
    expect(failed.title).toBe('A withdrawal failed');
    expect(failed.discreetBody).not.toContain('1250');
  });

  it('a rejection names who and why, escaped', () => {
    const rejected = orderFinalText(request, { by: 'bob', reason: 'wrong \u0007 address' });
    expect(rejected.body).toBe('bob rejected 1250.000001 USDT on TRON (request 12): "wrong ⟨U+0007⟩ address"');
    expect(rejected.discreetBody).not.toMatch(/bob|wrong|1250/);
  });
});

describe('the end of a batch payout', () => {
  const batch = { id: '4', fingerprint: 'WXYZ-2345-6789-ABCD' };

  it('one outcome for every line: the count and what happened, titled by it', () => {
    expect(batchFinalText(batch, ['success', 'success', 'success'], null)).toEqual({
      title: 'A batch payout was paid out',
      body: 'Batch WXYZ-2345-6789-ABCD: 3 payouts paid out (batch 4).',
      discreetBody: 'A batch payout was paid out. Unlock Treasury Desk to see the details.',
    });
    expect(batchFinalText(batch, ['cancelled'], null)).toMatchObject({ title: 'A batch payout was cancelled', body: 'Batch WXYZ-2345-6789-ABCD: 1 payout cancelled (batch 4).' });
  });

  it('lines that ended differently: counted by outcome', () => {
    const mixed = batchFinalText(batch, ['fail', 'success', 'WithdrawRefund', 'success'], null);
    expect(mixed.title).toBe('A batch payout has ended');
    expect(mixed.body).toBe('Batch WXYZ-2345-6789-ABCD: 4 payouts ended: 2 paid out, 1 refunded, 1 failed at the platform (batch 4).');
  });

  it('a rejection names who and why with control and direction characters as visible marks; discreet says neither', () => {
    const rejected = batchFinalText(batch, ['rejected', 'rejected'], { by: 'bob\u202E', reason: 'wrong \u0007 month \u001b[2J' });
    expect(rejected.body).toBe('Batch WXYZ-2345-6789-ABCD: 2 payouts rejected by bob⟨U+202E⟩: "wrong ⟨U+0007⟩ month ⟨U+001B⟩[2J" (batch 4).');
    for (const part of Object.values(rejected)) expect(part).not.toMatch(UNSAFE_TEXT_CHARACTERS);
    expect(rejected.discreetBody).not.toMatch(/bob|wrong|WXYZ|[0-9]/);
  });

  it('an altered batch row: no fingerprint, said so; an unsafe fingerprint or id is escaped', () => {
    expect(batchFinalText({ id: '4', fingerprint: null }, ['success'], null).body).toBe('Batch (no verified fingerprint: its stored row was altered): 1 payout paid out (batch 4).');
    const unsafe = batchFinalText({ id: '4\u2067', fingerprint: 'AB\u202ECD' }, ['success'], null);
    expect(unsafe.body).toBe('Batch AB⟨U+202E⟩CD: 1 payout paid out (batch 4⟨U+2067⟩).');
  });
});

describe('stuck orders, deposits and the connection', () => {
  it('a stuck order says which status, for how long, and what is usual', () => {
    const stuck = orderStuckText({ ...request, state: 'submitted', orderStatus: 'pendingTransfer' }, { status: 'pendingTransfer', stuckForMs: 2 * 3_600_000 + 5 * 60_000, thresholdMs: 7_200_000 });
    expect(stuck.body).toContain('has been pendingTransfer for 2 h 5 min; it usually moves on within 2 h');
    expect(stuck.body).toContain('order td-20261123-abc');
    expect(stuck.discreetBody).not.toMatch(/1250|td-2026/);
    // What to do next, as the watchdog's flag says it, escaped like everything from the network.
    const next = orderStuckText(request, { status: 'pendingCallback', stuckForMs: 3 * 3_600_000, thresholdMs: 7_200_000 }, ['Check the transfer on chain: run checkTransfer on txid ab\u202Ecd (trx.usdt).', 'Contact the platform with apiOrder WD1 (userOrder td-1).']);
    expect(next.body).toMatch(/within 2 h\. Check the transfer on chain: run checkTransfer on txid ab⟨U\+202E⟩cd \(trx\.usdt\)\. Contact the platform with apiOrder WD1 \(userOrder td-1\)\.$/);
    expect(next.discreetBody).not.toMatch(/WD1|checkTransfer/);
  });

  it('a deposit with its exact amount and the merchant reference, escaped, never the address', () => {
    const deposit = { id: 3, amount: '100.000001', currency: 'trx.usdt', userOrder: 'INV-7\u202E', address: ADDRESS, txid: 'ab'.repeat(32) } as unknown as Deposit;
    const text = depositText(deposit);
    expect(text.body).toBe('100.000001 USDT on TRON received for INV-7⟨U+202E⟩.');
    expect(text.body).not.toContain(ADDRESS);
    expect(text.discreetBody).not.toContain('100');
  });

  it('offline in the desk’s own words (never the network’s message), and back online with how long it lasted', () => {
    const text = offlineText({ online: false, reason: 'network', message: 'connect ECONNREFUSED 10.1.2.3:443', since: 0, lastContactAt: null }, 3 * 60_000);
    expect(text.body).toContain('cannot be reached');
    expect(text.body).toContain('Offline for 3 min');
    expect(text.body).not.toContain('10.1.2.3');
    expect(onlineText(0, 90 * 60_000).body).toBe('The payment service answers again, after 1 h 30 min offline.');
  });

  it('durations', () => {
    expect([duration(30_000), duration(60_000), duration(3_600_000), duration(90_000_000)]).toEqual(['under a minute', '1 min', '1 h', '1 d 1 h']);
  });
});
