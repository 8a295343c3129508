// Proof of control by a reverse micro-deposit (issue 21 item 2) on a real desk, real SQLite and the real sandbox on
// loopback: the proof request, a deposit credited through the sandbox's admin API from a chosen fromAddress, and the
// desk-signed "control proven"; a deposit from another address proves nothing; an edited or planted proof row is
// refused; a retry reuses the deposit address; TON is refused with its reason; the policy's "proven control above"
// refuses an unproven address above the amount and allows it below.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlStandingText, reviewLines } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { addApprovedToBook, creditDeposit, expectNoOrder, fundedDesk, inspect, tamper } from './support';

let desk: Desk;
let bigToPayee = '';
/** The review lines' format: UTC times in ISO form, English grouping. */
const EN = { locale: 'en-US', time: (ms: number): string => new Date(ms).toISOString() } as const;
const payee = tronAddress();
const other = tronAddress();
const stranger = tronAddress();

const credit = (toAddress: string, currency: string, amount: string, fromAddress: string): Promise<void> => creditDeposit(desk, toAddress, currency, amount, fromAddress);
const addToBook = (chain: string, address: string): Promise<void> => addApprovedToBook(desk, chain, address);

const iso = (ms: number): string => new Date(ms).toISOString();

beforeAll(async () => {
  desk = await fundedDesk();
  await addToBook('trx', payee);
  await addToBook('trx', other);
});
afterAll(async () => desk?.close());

describe('proof of control', () => {
  it('refuses a chain whose deposit record cannot prove it, saying why, and signs nothing', async () => {
    const ton = `0:${randomBytes(32).toString('hex')}`;
    const before = (await desk.value('audit/list', { limit: 500 })).rows.length;
    const refused = await desk.call('addressbook/prove', { chain: 'ton', address: ton, as: INITIATOR });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).toContain('the desk cannot prove control of a TON address');
      expect(refused.error.message).toContain('PROTOCOL §11.4');
    }
    expect((await desk.value('audit/list', { limit: 500 })).rows.length).toBe(before);
    const view = await desk.value('addressbook/proof', { chain: 'ton', address: ton });
    expect(view).toMatchObject({ status: 'cannotProve', chainCanProve: false });
  });

  it('refuses an address that is not in the book', async () => {
    const refused = await desk.call('addressbook/prove', { chain: 'trx', address: stranger, as: INITIATOR });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain('is not in the address book');
  });

  it('makes a deposit address under a derived userOrder and tells what to ask the payee; a retry reuses it and signs nothing more', async () => {
    const first = await desk.value('addressbook/prove', { chain: 'trx', address: payee, as: INITIATOR });
    expect(first.status).toBe('waiting');
    expect(first.request?.userOrder).toMatch(/^proof-[0-9a-f]{40}$/);
    expect(first.request).toMatchObject({ currency: 'trx', minimum: '1', requestedBy: 'carol' });
    expect(first.instructions).toContain(`at least 1 TRX (TRON) FROM ${payee} TO ${first.request?.depositAddress}, on TRON`);
    const again = await desk.value('addressbook/prove', { chain: 'trx', address: payee, as: APPROVER });
    expect(again.request).toEqual(first.request);
    const requests = await desk.value('audit/list', { action: 'addressbook/proveRequest', limit: 50 });
    expect(requests.rows).toHaveLength(1);
    expect(first.standing.proven).toBe(false);
    expect(controlStandingText(first.standing, iso)).toBe('control not proven');
  });

  it('a deposit from another address does not prove it, and says so', async () => {
    const view = await desk.value('addressbook/proof', { chain: 'trx', address: payee });
    await credit(view.request?.depositAddress ?? '', 'trx', '5', other);
    await desk.value('sync/run', {});
    const after = await desk.value('addressbook/proof', { chain: 'trx', address: payee });
    expect(after.status).toBe('waiting');
    expect(after.standing.proven).toBe(false);
    expect(after.deposits.map((deposit) => deposit.refusal)).toEqual([`a deposit came from ${other}, not from the address`]);
    expect((await desk.value('audit/list', { action: 'addressbook/controlProven', limit: 50 })).rows).toHaveLength(0);
    // Nor does it prove the address it came from, which asked for no proof.
    expect((await desk.value('addressbook/proof', { chain: 'trx', address: other })).standing.proven).toBe(false);
  });

  it('a verified deposit from the address of at least deposit_min proves control, signed by the desk key with the deposit as evidence', async () => {
    const view = await desk.value('addressbook/proof', { chain: 'trx', address: payee });
    await credit(view.request?.depositAddress ?? '', 'trx', '1', payee);
    await desk.value('sync/run', {});
    const proven = await desk.value('addressbook/proof', { chain: 'trx', address: payee });
    expect(proven.status).toBe('proven');
    expect(proven.evidence).toMatchObject({ fromAddress: payee, currency: 'trx', refusal: null });
    expect(proven.instructions).toBeNull();
    expect(proven.refused).toEqual([]);
    const txid = proven.evidence?.txid ?? '';
    expect(txid).not.toBe('');
    expect(controlStandingText(proven.standing, iso)).toBe(`control proven on ${iso(proven.evidence?.at ?? 0)} by deposit ${txid}`);
    const rows = (await desk.value('audit/list', { action: 'addressbook/controlProven', limit: 50 })).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.operator ?? null).toBeNull();
    // The whole chain still verifies with the desk's row in it.
    expect((await desk.value('audit/verify', {})).ok).toBe(true);
  });

  it('the policy option refuses an unproven address above the amount (preflight, request, simulator) and allows it below; a proven one passes, and the review says so', async () => {
    const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, provenControlAbove: '100', as: ADMIN });
    if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
    expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.provenControlAbove).toBe('100');

    const above = await desk.value('policies/test', { currency: 'trx.usdt', amount: '150', toAddress: other, initiator: 'carol' });
    expect(above.allowed).toBe(false);
    expect(above.findings.find((finding) => finding.rule === 'provenControl')).toMatchObject({ active: true, refuses: true, text: expect.stringContaining(`control of trx:${other} is not proven`) });
    const below = await desk.value('policies/test', { currency: 'trx.usdt', amount: '100', toAddress: other, initiator: 'carol' });
    expect(below.findings.find((finding) => finding.rule === 'provenControl')).toMatchObject({ active: true, refuses: false });
    expect(below.allowed).toBe(true);

    const preflight = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '150', toAddress: other });
    expect(preflight.errors.map((error) => error.message).join('\n')).toContain('pays only addresses whose control is proven above 100 trx.usdt ("proven control above")');
    const refused = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '150', toAddress: other, as: INITIATOR });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain(`control of trx:${other} is not proven`);
    const small = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '100', toAddress: other, as: INITIATOR });
    expect(small.withdrawal.state).toBe('awaitingApproval');

    const proven = await desk.value('policies/test', { currency: 'trx.usdt', amount: '150', toAddress: payee, initiator: 'carol' });
    expect(proven.findings.find((finding) => finding.rule === 'provenControl')).toMatchObject({ refuses: false, text: expect.stringContaining('control proven on') });
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '150', toAddress: payee, as: INITIATOR });
    bigToPayee = withdrawal.id;
    expect((await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER })).state).toBe('approved');
    const review = await desk.value('withdrawals/review', { id: withdrawal.id });
    expect(review.destination.control).toMatchObject({ proven: true });
    const standing = reviewLines(review, EN).find((line) => line.item === 'standing')?.value ?? '';
    expect(standing).toMatch(/; control proven on .+ by deposit [0-9a-f]+/);
    expect(reviewLines(review, EN).find((line) => line.item === 'rule')?.value).toContain('above 100 only addresses whose control is proven');

    // Held at send: the small request, approved under 100, once an admin lowers the amount to 50 (tightening: at once).
    expect((await desk.value('withdrawals/approve', { id: small.withdrawal.id, as: APPROVER })).state).toBe('approved');
    const lower = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, provenControlAbove: '50', as: ADMIN });
    if (!lower.applied) await desk.value('operators/confirm', { proposal: lower.proposal.id, as: SECOND_ADMIN });
    const held = await desk.call('withdrawals/submit', { id: small.withdrawal.id, as: INITIATOR });
    expect(held.ok).toBe(false);
    if (!held.ok) expect(held.error.message).toContain(`control of trx:${other} is not proven`);
    await expectNoOrder(desk, small.withdrawal.userOrder);
  });

  it('refuses a proof row edited in the file, and a planted one: the standing comes only from a statement that verifies', async () => {
    const seq = inspect(desk, (db) => (db.prepare("SELECT seq FROM audit_log WHERE action = 'addressbook/controlProven'").get() as { seq: number }).seq);
    // Planted: a copy of the proof made out to the stranger, appended at the head with the copied signature.
    const planted = tamper(desk, (db) => {
      const row = db.prepare('SELECT * FROM audit_log WHERE seq = ?').get(seq) as Record<string, string | number>;
      const head = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string };
      const statement = String(row['statement']).split(payee).join(stranger);
      db.prepare('INSERT INTO audit_log (seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)').run(
        head.seq + 1, row['at'], row['profile'], row['kind'], row['action'], `trx:${stranger}`, row['key_id'], statement, row['signature'], head.hash, randomBytes(32).toString('hex'),
      );
      return head.seq + 1;
    });
    const forged = await desk.value('addressbook/proof', { chain: 'trx', address: stranger });
    expect(forged.standing.proven).toBe(false);
    expect(forged.refused).toEqual([`audit row ${planted} claims a control proof but its signature does not verify: it was altered or planted`]);
    expect((await desk.value('policies/test', { currency: 'trx.usdt', amount: '150', toAddress: stranger })).findings.find((finding) => finding.rule === 'provenControl')?.refuses).toBe(true);
    // The attacker moves the proof to another address of the book, in the signed text and the subject column.
    tamper(desk, (db) => {
      const row = db.prepare('SELECT statement, subject FROM audit_log WHERE seq = ?').get(seq) as { statement: string; subject: string };
      db.prepare('UPDATE audit_log SET statement = ?, subject = ? WHERE seq = ?').run(row.statement.split(payee).join(other), row.subject.split(payee).join(other), seq);
    });
    const moved = await desk.value('addressbook/proof', { chain: 'trx', address: other });
    expect(moved.standing.proven).toBe(false);
    expect(moved.refused.join('\n')).toContain(`audit row ${seq} claims a control proof but its signature does not verify`);
    const gone = await desk.value('addressbook/proof', { chain: 'trx', address: payee });
    expect(gone.standing.proven).toBe(false);
    // The request approved while the proof stood: its review now says the control is not proven.
    const review = await desk.value('withdrawals/review', { id: bigToPayee });
    expect(reviewLines(review, EN).find((line) => line.item === 'standing')?.value).toContain('control not proven');
  });
});
