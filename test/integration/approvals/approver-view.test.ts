// The approver's review of a request (withdrawals/review, issue 20 part 5) on a real desk and sandbox: every item comes
// from the signed intent and verified statements; a row edited after the request shows the intent's values, flagged.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains';
import { reviewLines, reviewWarning, type ApproverView } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { fund, fundedDesk, tamper } from './support';

/** A fresh lower-case EVM address (valid without an EIP-55 checksum). */
function evmAddress(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

/** The same address with two characters in the middle changed: a look-alike (same ends). */
function lookAlikeOf(address: string): string {
  const other = (character: string | undefined): string => (character === '0' ? '1' : '0');
  return `${address.slice(0, 20)}${other(address[20])}${other(address[21])}${address.slice(22)}`;
}

const EN = { locale: 'en-US', time: (ms: number) => new Date(ms).toISOString() } as const;

function line(view: ApproverView, item: string): string {
  return reviewLines(view, EN).find((entry) => entry.item === item)?.value ?? '';
}

let desk: Desk;
beforeAll(async () => {
  desk = await fundedDesk();
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000', 'eth.usdt': '5000' } })).status).toBe(200);
  await fund(desk, '5000');
  // Amounts above 1000 trx.usdt need two approvals.
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [{ above: '1000', approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, as: ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
});
afterAll(async () => desk?.close());

describe('the review of a request', () => {
  it('shows the signed amount, the fee preflight computed (signed), the total, the chain, the memo as the remark, the tier and who is still needed', async () => {
    const toAddress = tronAddress();
    const { withdrawal, preflight } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '1250.5', toAddress, memo: 'rent May', as: INITIATOR });
    expect(preflight.fee).not.toBeNull();
    const review = await desk.value('withdrawals/review', { id: withdrawal.id });
    expect(review).toMatchObject({
      signed: true,
      altered: [],
      amount: '1250.5',
      fee: preflight.fee,
      feeSource: 'signedAtRequest',
      feeNow: null,
      totalDebited: new Money('1250.5').plus(preflight.fee ?? '0').toFixed(),
      currency: 'trx.usdt',
      currencyName: 'USDT on TRON',
      chainName: 'TRON',
      withdrawType: 'normal',
      memo: 'rent May',
      remark: `TD ${withdrawal.fingerprint} rent May`,
      initiator: INITIATOR.operator,
      fingerprint: withdrawal.fingerprint,
      destination: { address: toAddress, inBook: false, label: null, isNew: true, lookAlikes: [], timesPaid: 0 },
      rule: { tierAbove: '1000', tierApprovals: 2, intentApprovals: 2, onlyFromBook: false },
      approvals: { required: 2, counted: 0, stillNeeded: 2, given: [] },
    });
    expect(review.totalDebited).toBe(preflight.totalDebited);
    // The signed request time (the row's created_at is a cache written a moment later).
    expect(review.requestedAt).toBeLessThanOrEqual(withdrawal.createdAt);
    expect(withdrawal.createdAt - (review.requestedAt ?? 0)).toBeLessThan(60_000);
    expect(review.ageMs).toBeGreaterThanOrEqual(0);
    // The same words on every face: grouped amounts, the tier and why, the remark.
    expect(line(review, 'amount')).toBe('1,250.5 trx.usdt');
    expect(line(review, 'rule')).toMatch(/1,250\.5 is above 1,000: that tier needs 2 approvals/);
    expect(line(review, 'memo')).toBe(`"rent May"; the order's remark will read "TD ${withdrawal.fingerprint} rent May"`);
    expect(line(review, 'standing')).toMatch(/not in the address book; no label; NEW: never paid from this desk/);
    expect(reviewWarning(review)).toBeNull();

    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    const after = await desk.value('withdrawals/review', { id: withdrawal.id });
    expect(after.approvals).toMatchObject({ required: 2, counted: 1, stillNeeded: 1, given: [{ operator: APPROVER.operator, counts: true }] });
    expect(line(after, 'given')).toMatch(new RegExp(`^${APPROVER.operator} at \\d{4}-`));
    expect(line(after, 'needed')).toBe('1 more, from operators independent of the initiator and of each other (1 of 2 given)');
  });

  it('of a row edited after the request shows what the initiator signed, and names the altered fields', async () => {
    const toAddress = tronAddress();
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress, memo: 'invoice 7', as: INITIATOR });
    const attacker = tronAddress();
    tamper(desk, (db) =>
      db.prepare("UPDATE withdrawal_requests SET amount = '1400', to_address = ?, memo = 'invoice 8', fingerprint = 'AAAA-BBBB-CCCC-DDDD' WHERE id = ?").run(attacker, Number(withdrawal.id)),
    );
    expect((await desk.value('withdrawals/get', { id: withdrawal.id })).amount).toBe('1400');
    const review = await desk.value('withdrawals/review', { id: withdrawal.id });
    expect(review).toMatchObject({ signed: true, amount: '14', memo: 'invoice 7', fingerprint: withdrawal.fingerprint, destination: { address: toAddress } });
    expect([...review.altered].sort()).toEqual(['amount', 'memo', 'toAddress']);
    expect(review.problems.join('; ')).toMatch(/differs from what carol signed \(amount, toAddress, memo\)/);
    expect(reviewWarning(review)).toBe('The request row was altered after it was made (amount, toAddress, memo): shown here is what carol signed.');
    expect(reviewLines(review, EN).filter((entry) => entry.warn).map((entry) => entry.item)).toEqual(expect.arrayContaining(['amount', 'memo', 'destination']));
  });

  it('names the book entry and label, counts the times paid from verified payments (as the history does), and flags a look-alike of the book', async () => {
    const supplier = evmAddress();
    const added = await desk.value('addressbook/add', { chain: 'eth', address: supplier, label: 'Supplier ACME', as: INITIATOR });
    const pending = added.pending.find((entry) => entry.address === supplier);
    await desk.value('addressbook/approve', { proposal: pending?.proposal, as: APPROVER });

    const first = (await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '22', toAddress: supplier, as: INITIATOR })).withdrawal;
    const before = await desk.value('withdrawals/review', { id: first.id });
    expect(before.destination).toMatchObject({ inBook: true, label: 'Supplier ACME', isNew: true, timesPaid: 0, lookAlikes: [] });
    expect(before.destination.bookSince).not.toBeNull();
    expect(before.chainName).toBe('Ethereum');
    await desk.value('withdrawals/approve', { id: first.id, as: APPROVER });
    await desk.value('withdrawals/submit', { id: first.id, as: INITIATOR });

    // Sent but not (yet) successful: not paid, in the standing line as in the history.
    const second = (await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '23', toAddress: supplier.toUpperCase().replace('0X', '0x'), as: INITIATOR })).withdrawal;
    const sentOnly = await desk.value('withdrawals/review', { id: second.id });
    expect(sentOnly.destination).toMatchObject({ isNew: true, timesPaid: 0, history: [] });
    const merchantId = desk.sandbox.credentials.merchantId;
    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) await desk.admin('POST', `/withdrawals/${merchantId}/${first.userOrder}/advance`, { to });
    await desk.value('sync/run', {});
    const paidOnce = await desk.value('withdrawals/review', { id: second.id });
    expect(paidOnce.destination).toMatchObject({ inBook: true, label: 'Supplier ACME', isNew: false, timesPaid: 1 });
    expect(paidOnce.destination.history).toEqual([expect.objectContaining({ currency: 'eth.usdt', timesPaid: 1 })]);

    // A row's state flipped back does not change the count: it is read from the signed statements.
    tamper(desk, (db) => db.prepare("UPDATE withdrawal_requests SET state = 'awaitingApproval' WHERE id = ?").run(Number(first.id)));
    expect((await desk.value('withdrawals/review', { id: second.id })).destination.timesPaid).toBe(1);

    const poisoned = lookAlikeOf(supplier);
    const third = (await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '24', toAddress: poisoned, as: INITIATOR })).withdrawal;
    const review = await desk.value('withdrawals/review', { id: third.id });
    expect(review.destination).toMatchObject({ inBook: false, isNew: true, timesPaid: 0, lookAlikes: [{ address: supplier, label: 'Supplier ACME', differingPositions: [20, 21] }] });
    expect(line(review, 'standing')).toContain(`LOOK-ALIKE of ${supplier} ("Supplier ACME"), differing at positions 21, 22`);
  });

  it('refuses an id that is not a request, saying so', async () => {
    const missing = await desk.call('withdrawals/review', { id: '99999' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.message).toMatch(/no withdrawal request 99999/);
  });
});
