// E2E: the approver sees everything they sign (issue 20, part 5). The approve dialog and the queue's detail show every
// item (amount, fee and total debited grouped as on every screen, the chain, the type, the memo as the order's remark,
// the destination's standing with its book look-alike and the poisoning radar's flag (it sent dust), the rule that
// matched, approvals given and still needed, what holds it if sent now, the age, the fingerprint), each checked against the signed intent read from the desk's own audit log; text from people
// (an address-book label edited in the file with a bidi override) is shown escaped; both pass axe.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { Money } from '../../electron/chains';
import { groupAmount } from '../../electron/contract';
import { intentFingerprint, type WithdrawalIntent } from '../../electron/core/statements/intent';
import { test, expect, type Desk } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

test.use({ locale: 'en-US' });

/** The same address with two characters in the middle changed: a look-alike (same ends). */
function lookAlikeOf(address: string): string {
  const other = (character: string | undefined): string => (character === '0' ? '1' : '0');
  return `${address.slice(0, 20)}${other(address[20])}${other(address[21])}${address.slice(22)}`;
}

/** The request statement the initiator signed for a request: its intent and preflight's quote, from the audit log. */
function signedRequest(desk: Desk, id: string): { intent: WithdrawalIntent; quote: { fee: string; totalDebited: string } } {
  const db = new Database(desk.harness.dbPath, { readonly: true });
  try {
    const { intent_hash: hash } = db.prepare('SELECT intent_hash FROM withdrawal_requests WHERE id = ?').get(Number(id)) as { intent_hash: string };
    const row = db.prepare("SELECT statement FROM audit_log WHERE subject = ? AND kind = 'request'").get(hash) as { statement: string };
    const body = (JSON.parse(row.statement) as { body: { intent: WithdrawalIntent; quote: { fee: string; totalDebited: string } } }).body;
    return { intent: body.intent, quote: body.quote };
  } finally {
    db.close();
  }
}

function editInFile(desk: Desk, sql: string, ...params: unknown[]): void {
  const db = new Database(desk.harness.dbPath);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

test('the approve dialog and the queue detail show every item the approver signs, from the signed intent', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  // Amounts above 1,000 eth.usdt need two approvals.
  const change = await desk.value('policies/set', { currency: 'eth.usdt', thresholds: [{ above: '1000', approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, as: DEMO_ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: DEMO_ADMIN_2 });
  // A supplier in the address book; the request goes to a look-alike of it.
  const supplier = `0x${randomBytes(20).toString('hex')}`;
  const added = await desk.value('addressbook/add', { chain: 'eth', address: supplier, label: 'Supplier ACME', as: DEMO_ADMIN });
  const pending = added.pending.find((entry) => entry.address === supplier);
  if (pending === undefined) throw new Error('the book addition is not pending');
  await desk.value('addressbook/approve', { proposal: pending.proposal, as: DEMO_APPROVER });
  const destination = lookAlikeOf(supplier);
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '1250.5', toAddress: destination, memo: 'rent May', as: DEMO_ADMIN });

  // Then the look-alike sends dust (the poisoning radar flags it): the standing says so and "If sent now" holds it.
  const deposit = await desk.value('addresses/create', { addressType: 'eth_bnb', as: DEMO_ADMIN });
  expect((await sandboxAdmin(desk.demoSandbox().baseUrl).transfer({ toAddress: deposit.address, currency: 'bnb.usdt', amount: '1', fromAddress: destination })).credited).toBe(true);
  await desk.value('sync/run', {});

  const { intent, quote } = signedRequest(desk, withdrawal.id);
  const fingerprint = intentFingerprint(intent);
  const money = (value: string): string => `${groupAmount(value, 'en-US')} ${intent.currency}`;
  const total = new Money(intent.amount).plus(quote.fee).toFixed();
  /** Every item of part 5, as the signed intent says it must read. */
  async function expectItems(prefix: string, approvals: { given: RegExp; needed: string }): Promise<void> {
    const item = (name: string) => page.getByTestId(`${prefix}/${name}`);
    await expect(item('amount')).toContainText(money(intent.amount));
    await expect(item('amount')).toContainText('1,250.5');
    await expect(item('fee')).toContainText(`${money(quote.fee)} (as preflight computed it, signed by the initiator)`);
    await expect(item('total')).toContainText(money(total));
    expect(total).toBe(quote.totalDebited);
    await expect(item('currency')).toContainText('USDT on Ethereum (eth.usdt), on the Ethereum chain');
    await expect(item('type')).toContainText(intent.withdrawType);
    await expect(item('memo')).toContainText("Memo (the service receives it as the order's remark)");
    await expect(item('memo')).toContainText(`"${intent.memo ?? ''}"; the order's remark will read "TD ${fingerprint} ${intent.memo ?? ''}"`);
    await expect(item('destination')).toContainText(intent.toAddress);
    await expect(item('standing')).toContainText('not in the address book');
    await expect(item('standing')).toContainText('NEW: never paid from this desk');
    await expect(item('standing')).toContainText(`LOOK-ALIKE of ${supplier} ("Supplier ACME"), differing at positions 21, 22`);
    await expect(item('standing')).toContainText(`flagged by the poisoning radar: looks like eth:${supplier} (`);
    await expect(item('standing')).toContainText('not cleared: paying it is refused until two admins clear it');
    await expect(item('standing')).toHaveAttribute('data-warn', 'true');
    await expect(item('heldNow')).toContainText(`${intent.toAddress} looks like book entry eth:${supplier}`);
    await expect(item('history')).toContainText('Paid before to this address');
    await expect(item('history')).toContainText('never paid before from this desk');
    await expect(item('history')).toHaveAttribute('data-warn', 'true');
    await expect(item('rule')).toContainText(`${groupAmount(intent.amount, 'en-US')} is above 1,000: that tier needs 2 approvals`);
    await expect(item('given')).toContainText(approvals.given);
    await expect(item('needed')).toContainText(approvals.needed);
    await expect(item('age')).toContainText(`ago, at`);
    await expect(item('age')).toContainText(`by ${DEMO_ADMIN.operator}`);
    await expect(item('fingerprint')).toContainText(fingerprint);
  }

  await go(page, 'withdrawals');
  const queued = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${withdrawal.id}"]`);
  await queued.getByTestId('@withdrawals/approve-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toHaveAttribute('data-ready', 'true');
  // The dialog's summary groups the amount too (never the raw 1250.5).
  await expect(dialog.getByTestId('@operator-dialog/description')).toContainText('1,250.5 USDT on Ethereum');
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(fingerprint);
  await expectItems('@operator-dialog/review', { given: /none yet/, needed: '2 more, from operators independent of the initiator and of each other (0 of 2 given)' });
  await expectAccessible(page, 'approve dialog with everything the approver signs');
  await saveScreenshot(page, 'withdrawals-approve-dialog-review');
  await actAs(page, DEMO_APPROVER);

  await queued.getByTestId('@withdrawals/details-button').click();
  const detail = page.getByTestId('@withdrawals/detail');
  await expect(detail).toHaveAttribute('data-id', withdrawal.id);
  await expectItems('@withdrawals/detail-review', { given: new RegExp(`Approvals given${DEMO_APPROVER.operator} at `), needed: '1 more, from operators independent of the initiator and of each other (1 of 2 given)' });
  // Preflight knew the fee: the detail never says "Fee —".
  await expect(detail.getByText('Fee', { exact: true })).toHaveCount(1);
  await expect(detail.getByTestId('@withdrawals/detail-review/fee')).not.toContainText('—');
  await expectAccessible(page, 'withdrawal detail with everything the approver signs');
  await saveScreenshot(page, 'withdrawals-detail-review');

  // A label edited in the file with a right-to-left override is shown escaped, never acting on the text.
  editInFile(desk, "UPDATE address_book SET label = ? WHERE address = ?", 'Supplier \u202Eevil', supplier);
  await detail.getByTestId('@withdrawals/refresh-button').click();
  await expect(detail.getByTestId('@withdrawals/detail-review/standing')).toContainText('Supplier ⟨U+202E⟩evil');
  await expect(detail.getByTestId('@withdrawals/detail-review/standing')).not.toContainText('\u202E');
});

test('a request row edited in the file shows what the initiator signed, with the altered fields named', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: `0x${randomBytes(20).toString('hex')}`, memo: 'invoice 7', as: DEMO_ADMIN });
  const { intent } = signedRequest(desk, withdrawal.id);
  editInFile(desk, "UPDATE withdrawal_requests SET amount = '14000', memo = 'invoice 8' WHERE id = ?", Number(withdrawal.id));

  await go(page, 'withdrawals');
  const queued = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${withdrawal.id}"]`);
  await queued.getByTestId('@withdrawals/details-button').click();
  const review = page.getByTestId('@withdrawals/detail-review');
  await expect(review.getByTestId('@withdrawals/detail-review/warning')).toHaveText(
    `The request row was altered after it was made (amount, memo): shown here is what ${DEMO_ADMIN.operator} signed.`,
  );
  await expect(review.getByTestId('@withdrawals/detail-review/amount')).toContainText(`${intent.amount} eth.usdt`);
  await expect(review.getByTestId('@withdrawals/detail-review/amount')).toHaveAttribute('data-warn', 'true');
  await expect(review.getByTestId('@withdrawals/detail-review/memo')).toContainText('"invoice 7"');
  await expect(review).not.toContainText('14,000');
  await expectAccessible(page, 'withdrawal detail of an altered row');
});
