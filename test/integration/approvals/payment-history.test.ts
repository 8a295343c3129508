// Issue 21 item 4 on a real desk and sandbox: the approver sees a destination's verified payment history (signed intent, verifying submit, the service's signed success), and the unusual-amount rule adds one approval at request, holds a send approved with fewer, and is named by the simulator; request rows edited in SQLite change neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewLines, type ApproverView } from '../../../electron/contract';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { expectNoOrder, fund, type Requested, tamper } from './support';

const ERIN = { operator: 'erin', passphrase: 'erin passphrase 55' };
const EN = { locale: 'en-US', time: (ms: number) => new Date(ms).toISOString() } as const;

function line(view: ApproverView, item: string): string {
  return reviewLines(view, EN).find((entry) => entry.item === item)?.value ?? '';
}

let desk: Desk;
beforeAll(async () => {
  desk = await openDesk({ profile: false });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  await enrol(desk, APPROVER, 'approver');
  await enrol(desk, ERIN, 'approver');
  await enrol(desk, INITIATOR, 'initiator');
  await fund(desk, '5000');
  await setUnusual('3');
}, 180_000);
afterAll(async () => desk?.close());

/** alice proposes the trx.usdt policy with the unusual-amount rule, frank confirms it. */
async function setUnusual(factor: string): Promise<void> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, unusualAmount: { factor, firstPayment: true }, as: ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.unusualAmount).toEqual({ factor, firstPayment: true });
}

async function request(amount: string, toAddress: string): Promise<Requested & { required: number }> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress, as: INITIATOR });
  return { id: withdrawal.id, userOrder: withdrawal.userOrder, toAddress, fingerprint: withdrawal.fingerprint ?? '', required: withdrawal.requiredApprovals };
}

/** Approved by bob, then erin while it still waits. */
async function approve(requested: Requested): Promise<void> {
  let state = (await desk.value('withdrawals/approve', { id: requested.id, as: APPROVER })).state;
  if (state === 'awaitingApproval') state = (await desk.value('withdrawals/approve', { id: requested.id, as: ERIN })).state;
  expect(state).toBe('approved');
}

/** Sent, and its order taken to success by the sandbox, whose signed answer the desk records on sync. */
async function paid(requested: Requested): Promise<void> {
  await approve(requested);
  expect((await desk.value('withdrawals/submit', { id: requested.id, as: INITIATOR })).state).not.toBe('approved');
  const merchantId = desk.sandbox.credentials.merchantId;
  for (const to of ['pendingTransfer', 'pendingCallback', 'success']) expect((await desk.admin('POST', `/withdrawals/${merchantId}/${requested.userOrder}/advance`, { to })).status).toBe(200);
  await desk.value('sync/run', {});
}

describe('payment history at approval and the unusual-amount rule', () => {
  const payee = tronAddress();
  const history: Requested[] = [];

  it('a first payment says so plainly and needs one approval more', async () => {
    const first = await request('10', payee);
    expect(first.required).toBe(2);
    const review = await desk.value('withdrawals/review', { id: first.id });
    expect(review.destination.history).toEqual([]);
    expect(line(review, 'history')).toBe('never paid before from this desk');
    expect(review.rule.intentApprovals).toBe(2);
    expect(line(review, 'rule')).toContain('the unusual-amount rule adds one approval: this destination was never paid before from this desk (first payment)');
    expect((await desk.value('withdrawals/approve', { id: first.id, as: APPROVER })).state).toBe('awaitingApproval');
    expect((await desk.value('withdrawals/approve', { id: first.id, as: ERIN })).state).toBe('approved');
    expect((await desk.value('withdrawals/submit', { id: first.id, as: INITIATOR })).state).not.toBe('approved');
    const merchantId = desk.sandbox.credentials.merchantId;
    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) await desk.admin('POST', `/withdrawals/${merchantId}/${first.userOrder}/advance`, { to });
    await desk.value('sync/run', {});
    history.push(first);
  }, 120_000);

  it('shows times paid, last paid, median and largest from the paid orders only', async () => {
    // A request sent but not (yet) successful, and one never sent, are not payments.
    const pending = await request('25', payee);
    await approve(pending);
    expect((await desk.value('withdrawals/submit', { id: pending.id, as: INITIATOR })).state).not.toBe('approved');
    for (const amount of ['20', '30']) {
      const next = await request(amount, payee);
      expect(next.required).toBe(1); // at most 3 × the median paid
      await paid(next);
      history.push(next);
    }
    const unsent = await request('29', payee);
    const review = await desk.value('withdrawals/review', { id: unsent.id });
    expect(review.destination.history).toHaveLength(1);
    const [lineOf] = review.destination.history;
    expect(lineOf).toMatchObject({ currency: 'trx.usdt', timesPaid: 3, median: '20', largest: '30' });
    // The figures match the orders the service reported successful.
    const done = (await desk.value('withdrawals/list', { limit: 50 })).rows.filter((row) => row.toAddress === payee && row.outcome === 'success');
    expect(done.map((row) => row.amount).sort()).toEqual(['10', '20', '30']);
    expect((await desk.value('withdrawals/get', { id: pending.id })).outcome).toBeNull();
    expect(lineOf?.lastPaidAt).toBeGreaterThan(0);
    expect(line(review, 'history')).toBe(`trx.usdt: paid 3 times, last ${EN.time(lineOf?.lastPaidAt ?? 0)}, median 20, largest 30`);
    await desk.value('withdrawals/cancel', { id: unsent.id, as: INITIATOR });
  }, 180_000);

  it('adds an approval above factor × median; editing request rows changes neither the history nor the rule', async () => {
    const usual = await request('60', payee);
    expect(usual.required).toBe(1);
    const unusual = await request('60.01', payee);
    expect(unusual.required).toBe(2);
    expect(line(await desk.value('withdrawals/review', { id: unusual.id }), 'rule')).toContain('the unusual-amount rule adds one approval: 60.01 trx.usdt against 3 × the median paid 20 trx.usdt = 60 trx.usdt');

    // The attack: every paid row's amount, state and address edited (as if it never went to this payee, or for 1000).
    tamper(desk, (db) => {
      for (const each of history) db.prepare("UPDATE withdrawal_requests SET amount = '1000', state = 'rejected', to_address = ? WHERE id = ?").run(tronAddress(), Number(each.id));
    });
    const review = await desk.value('withdrawals/review', { id: usual.id });
    expect(review.destination.history).toEqual([expect.objectContaining({ timesPaid: 3, median: '20', largest: '30' })]);
    expect((await request('60.01', payee)).required).toBe(2);
    expect((await request('60', payee)).required).toBe(1);

    // The simulator names the rule, for this payee and for a first payment.
    const tested = await desk.value('policies/test', { currency: 'trx.usdt', amount: '61', toAddress: payee });
    expect(tested.requiredApprovals).toBe(2);
    expect(tested.findings.find((finding) => finding.rule === 'unusualAmount')).toMatchObject({ active: true, refuses: false, text: expect.stringContaining('3 × the median paid 20') });
    const fresh = await desk.value('policies/test', { currency: 'trx.usdt', amount: '1', toAddress: tronAddress() });
    expect(fresh.requiredApprovals).toBe(2);
    expect(fresh.findings.find((finding) => finding.rule === 'unusualAmount')?.text).toContain('first payment');

    // A request approved under factor 3 with one approval is held once the factor is lowered to 2 (40 < 60), naming the rule.
    await approve(usual);
    await setUnusual('2');
    const held = await desk.call('withdrawals/submit', { id: usual.id, as: INITIATOR });
    if (held.ok) expect.fail(`request ${usual.id} was sent: ${JSON.stringify(held.value)}`);
    expect(held.error).toMatchObject({ code: 'held' });
    expect(held.error.message).toMatch(/the unusual-amount rule adds one approval: 60 trx\.usdt against 2 × the median paid 20 trx\.usdt = 40 trx\.usdt.*needs 2 independent approvals and this request has 1/);
    await expectNoOrder(desk, usual.userOrder);
  }, 180_000);
});

describe("a payee's history: every address of the payee counts", () => {
  it('a payment to one address of a payee is history for its other addresses, at approval and in the unusual-amount rule', async () => {
    const [first, second] = [tronAddress(), tronAddress()];
    const added = await desk.value('payees/add', { name: 'Two Wallets Ltd', addresses: [{ chain: 'trx', address: first }, { chain: 'trx', address: second }], as: INITIATOR });
    await desk.value('addressbook/approve', { proposal: added.pending[0]?.proposal ?? '', as: APPROVER });

    const toFirst = await request('40', first);
    expect(toFirst.required).toBe(2); // the payee's first payment
    await paid(toFirst);

    // To the payee's other address: paid once before (to its first), so no first-payment approval, and 3 × 40 applies.
    const toSecond = await request('50', second);
    expect(toSecond.required).toBe(1);
    const review = await desk.value('withdrawals/review', { id: toSecond.id });
    expect(review.destination).toMatchObject({ payee: 'Two Wallets Ltd', isNew: false, timesPaid: 1 });
    expect(review.destination.history).toEqual([expect.objectContaining({ currency: 'trx.usdt', timesPaid: 1, median: '40', largest: '40' })]);
    expect((await request('120.01', second)).required).toBe(2);
    // An address of no payee keeps its own history: nothing.
    expect((await desk.value('policies/test', { currency: 'trx.usdt', amount: '1', toAddress: tronAddress() })).requiredApprovals).toBe(2);
  }, 180_000);
});
