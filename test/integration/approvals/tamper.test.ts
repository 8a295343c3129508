// Attacks on the desk's SQLite file (triggers dropped, rows edited by hand) must never get a withdrawal submitted.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeCanonical } from '../../../electron/core/statements/canonical';
import { intentFingerprint, intentHash, type WithdrawalIntent } from '../../../electron/core/statements/intent';
import { auditRowHash, encodeStatement, parseStatement } from '../../../electron/core/statements/statement';
import { APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import {
  anchored,
  anchorName,
  auditRow,
  callOn,
  decisionRows,
  expectNoOrder,
  expectSubmitRefused,
  fundedDesk,
  headRow,
  insertAuditRow,
  inspect,
  randomHash,
  requestColumns,
  readAnchor,
  requestWithdrawal,
  submitRefusals,
  tamper,
  type RawAuditRow,
  type Requested,
} from './support';

/** Desks opened by one test; closed after it. */
const opened: Desk[] = [];
async function ownDesk(): Promise<Desk> {
  const desk = await fundedDesk();
  opened.push(desk);
  return desk;
}
afterEach(async () => {
  for (const desk of opened.splice(0)) await desk.close();
});

/** Lets the engine finish any anchor write, then checks the keychain still holds the anchor the tampering contradicts. */
async function expectAnchorKept(desk: Desk, anchor: { seq: number; hash: string }): Promise<void> {
  await desk.value('audit/head', {});
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await readAnchor(desk)).toEqual(anchor);
}

function setState(desk: Desk, id: string, state: string): void {
  tamper(desk, (db) => db.prepare('UPDATE withdrawal_requests SET state = ? WHERE id = ?').run(state, Number(id)));
}

describe('the request row edited (the chain untouched)', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await fundedDesk();
  });
  afterAll(async () => desk?.close());

  it('a waiting request flipped to approved is refused: no approval verifies', async () => {
    const request = await requestWithdrawal(desk);
    setState(desk, request.id, 'approved');
    expect((await desk.value('withdrawals/get', { id: request.id })).verification).toMatchObject({ ok: false, countedApprovals: 0 });
    await expectSubmitRefused(desk, request, /waiting for 1 approval from operators independent of carol/);
  });

  it('the amount edited after a legitimate approval (14 → 14000) is refused', async () => {
    const request = await requestWithdrawal(desk, '14');
    expect((await desk.value('withdrawals/approve', { id: request.id, as: APPROVER })).state).toBe('approved');
    tamper(desk, (db) => db.prepare("UPDATE withdrawal_requests SET amount = '14000' WHERE id = ?").run(Number(request.id)));
    const view = await desk.value('withdrawals/get', { id: request.id });
    expect(view.amount).toBe('14000');
    expect(view.verification.ok).toBe(false);
    await expectSubmitRefused(desk, request, /what would be sent differs from what carol signed \(amount\): the request was altered/);
  });

  it('the destination edited after a legitimate approval is refused', async () => {
    const request = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/approve', { id: request.id, as: APPROVER });
    const attacker = tronAddress();
    tamper(desk, (db) => db.prepare('UPDATE withdrawal_requests SET to_address = ? WHERE id = ?').run(attacker, Number(request.id)));
    await expectSubmitRefused(desk, request, /differs from what carol signed \(toAddress\)/);
    await expectNoOrder(desk, request.userOrder);
  });

  it('the amount and the stored intent_json edited together are refused (only the signed statement counts)', async () => {
    const request = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/approve', { id: request.id, as: APPROVER });
    tamper(desk, (db) => {
      const columns = requestColumns(db, request.id);
      const forged = { ...(JSON.parse(columns.intent_json) as WithdrawalIntent), amount: '14000' };
      db.prepare("UPDATE withdrawal_requests SET amount = '14000', intent_json = ? WHERE id = ?").run(encodeCanonical(forged), Number(request.id));
    });
    await expectSubmitRefused(desk, request, /differs from what carol signed \(amount\)/);
  });

  it('a whole forged intent (amount, intent_json, intent_hash, fingerprint consistent) is refused: nobody signed it', async () => {
    const request = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/approve', { id: request.id, as: APPROVER });
    const attacker = tronAddress();
    tamper(desk, (db) => {
      const columns = requestColumns(db, request.id);
      const forged: WithdrawalIntent = { ...(JSON.parse(columns.intent_json) as WithdrawalIntent), amount: '14000', toAddress: attacker };
      db.prepare("UPDATE withdrawal_requests SET amount = '14000', to_address = ?, intent_json = ?, intent_hash = ?, fingerprint = ? WHERE id = ?").run(
        attacker,
        encodeCanonical(forged),
        intentHash(forged),
        intentFingerprint(forged),
        Number(request.id),
      );
    });
    await expectSubmitRefused(desk, request, /no signed request statement exists for this request/);
  });

  it('an approval is refused while the request shows something else than what its initiator signed', async () => {
    // An insider initiator signs 4000 to their own address, then makes the row show 14 to a known payee.
    const request = await requestWithdrawal(desk, '4000');
    const shown = tronAddress();
    const signed = tamper(desk, (db) => {
      const columns = requestColumns(db, request.id);
      db.prepare("UPDATE withdrawal_requests SET amount = '14', to_address = ? WHERE id = ?").run(shown, Number(request.id));
      return columns;
    });
    expect(await desk.value('withdrawals/get', { id: request.id })).toMatchObject({ amount: '14', toAddress: shown });
    const refused = await desk.call('withdrawals/approve', { id: request.id, as: APPROVER });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unverified' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/differs from what carol signed \(amount, toAddress\)/);
    expect(inspect(desk, (db) => decisionRows(db, signed.intent_hash, 'approve'))).toEqual([]);
    const audit = (await desk.value('audit/list', { limit: 20 })).rows.filter((row) => row.action === 'withdrawals/approveRefused' && row.subject === request.userOrder);
    expect(audit).toHaveLength(1);
    // Put back, the row shows the signed intent: bob sees 4000 and decides on that.
    tamper(desk, (db) => db.prepare('UPDATE withdrawal_requests SET amount = ?, to_address = ? WHERE id = ?').run(signed.amount, signed.to_address, Number(request.id)));
    expect((await desk.value('withdrawals/get', { id: request.id })).verification.problems).toEqual(['waiting for 1 approval from operators independent of carol']);
    // A fingerprint column that is not the signed intent's is refused the same way (approvers compare it aloud).
    tamper(desk, (db) => db.prepare("UPDATE withdrawal_requests SET fingerprint = 'AAAA-BBBB-CCCC-DDDD' WHERE id = ?").run(Number(request.id)));
    const wrongCode = await desk.call('withdrawals/approve', { id: request.id, as: APPROVER });
    expect(wrongCode).toMatchObject({ ok: false, error: { code: 'unverified' } });
    if (!wrongCode.ok) expect(wrongCode.error.message).toContain('fingerprint');
    expect(inspect(desk, (db) => decisionRows(db, signed.intent_hash, 'approve'))).toEqual([]);
    await expectNoOrder(desk, request.userOrder);
  });

  it('column edits leave the signed chain intact: it verifies, refusals included', async () => {
    const refused = (await desk.value('audit/list', { limit: 1000 })).rows.filter((row) => row.action === 'withdrawals/submitRefused');
    expect(refused).toHaveLength(5);
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: true, anchored: true });
  });
});

describe("another request's approval row copied onto a waiting request", () => {
  /** R1 approved by bob (the row to copy) and T waiting (the target), on a desk of their own. */
  async function setup(): Promise<{ desk: Desk; target: Requested; source: RawAuditRow; targetHash: string }> {
    const desk = await ownDesk();
    const approved = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/approve', { id: approved.id, as: APPROVER });
    const target = await requestWithdrawal(desk, '14');
    const { source, targetHash } = inspect(desk, (db) => ({
      source: decisionRows(db, requestColumns(db, approved.id).intent_hash, 'approve')[0]!,
      targetHash: requestColumns(db, target.id).intent_hash,
    }));
    return { desk, target, source, targetHash };
  }

  it('a copy with only the subject column changed breaks the chain and is refused', async () => {
    const { desk, target, source, targetHash } = await setup();
    const seq = tamper(desk, (db) => {
      const head = headRow(db);
      // The copy's own hash would collide (the hash column is UNIQUE): the attacker fills in another one.
      insertAuditRow(db, { ...source, seq: head.seq + 1, prev_hash: head.hash, hash: randomHash(), subject: targetHash });
      db.prepare("UPDATE withdrawal_requests SET state = 'approved' WHERE id = ?").run(Number(target.id));
      return head.seq + 1;
    });
    // The views find rows by the subject column, but only a statement signed about this intent is evidence.
    const view = await desk.value('withdrawals/get', { id: target.id });
    expect(view.verification).toMatchObject({ ok: false, countedApprovals: 0 });
    expect(view.verification.problems).toContain(`row ${seq} is filed under this request, but its signed statement is about another: the audit log was altered`);
    expect(view.approvals).toEqual([]);
    await expectSubmitRefused(desk, target, new RegExp(`the audit log does not hold: row ${seq} holds the statement signed for row ${source.seq}`));
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: false, firstBadSeq: seq });
  });

  it('a copy appended at the head with its statement, prev_hash and hash recomputed is refused: the signature breaks', async () => {
    const { desk, target, source, targetHash } = await setup();
    // Only a re-encoded statement (subject, seq and prev made to fit) gets a hash of its own and links; bob's
    // signature stays the one he made over the original.
    const seq = tamper(desk, (db) => {
      const head = headRow(db);
      const original = parseStatement(source.statement);
      if (!original) throw new Error('the source row does not parse');
      const statement = encodeStatement({ ...original, subject: targetHash, seq: head.seq + 1, prev: head.hash });
      insertAuditRow(db, {
        ...source,
        seq: head.seq + 1,
        subject: targetHash,
        statement,
        prev_hash: head.hash,
        hash: auditRowHash(statement, source.signature),
      });
      db.prepare("UPDATE withdrawal_requests SET state = 'approved' WHERE id = ?").run(Number(target.id));
      return head.seq + 1;
    });
    const view = await desk.value('withdrawals/get', { id: target.id });
    expect(view.verification).toMatchObject({ ok: false, countedApprovals: 0 });
    await expectSubmitRefused(desk, target, new RegExp(`row ${seq} \\(approve by bob\\) does not verify: it was altered`));
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: false, firstBadSeq: seq, reason: expect.stringMatching(/signature does not verify/) });
  });
});

describe('a rejection row deleted', () => {
  it('in the middle of the log: the gap is found, even after a later approval moved the state', async () => {
    const desk = await ownDesk();
    const target = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/reject', { id: target.id, reason: 'unknown payee', as: SECOND_ADMIN });
    await requestWithdrawal(desk, '15'); // a later row: the rejection is now in the middle of the log
    const seq = tamper(desk, (db) => {
      const reject = decisionRows(db, requestColumns(db, target.id).intent_hash, 'reject')[0]!;
      expect(headRow(db).seq).toBeGreaterThan(reject.seq);
      db.prepare('DELETE FROM audit_log WHERE seq = ?').run(reject.seq);
      db.prepare("UPDATE withdrawal_requests SET state = 'awaitingApproval' WHERE id = ?").run(Number(target.id));
      return reject.seq;
    });
    // The views read statements by subject, so bob sees no rejection and his approval moves the state...
    expect((await desk.value('withdrawals/approve', { id: target.id, as: APPROVER })).state).toBe('approved');
    // ...but sending walks the whole chain.
    await expectSubmitRefused(desk, target, new RegExp(`row ${seq} is missing: the log jumps from ${seq - 1} to ${seq + 1}`));
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: false, firstBadSeq: seq });
  });

  it("as the newest row: this workstation's keychain anchor finds it, even after a later approval took its seq", async () => {
    const desk = await ownDesk();
    const target = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/reject', { id: target.id, reason: 'unknown payee', as: SECOND_ADMIN });
    const anchor = await anchored(desk);
    const seq = tamper(desk, (db) => {
      const reject = headRow(db);
      expect(reject).toMatchObject({ kind: 'reject', seq: anchor.seq });
      db.prepare('DELETE FROM audit_log WHERE seq = ?').run(reject.seq);
      db.prepare("UPDATE withdrawal_requests SET state = 'awaitingApproval' WHERE id = ?").run(Number(target.id));
      return reject.seq;
    });
    // The linkage is perfect now: bob's approval is signed as row `seq`, right after the row before the rejection.
    expect((await desk.value('withdrawals/approve', { id: target.id, as: APPROVER })).state).toBe('approved');
    expect(inspect(desk, (db) => auditRow(db, seq).kind)).toBe('approve');
    const rewritten = new RegExp(`row ${seq} is not the row this workstation saw: the log was rewritten at or before it`);
    await expectSubmitRefused(desk, target, rewritten);
    // The refusal's own audit row extends the log; the anchor must not move over the rewritten row and forget it.
    await expectAnchorKept(desk, anchor);
    await expectSubmitRefused(desk, target, rewritten);
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: false, firstBadSeq: seq, reason: expect.stringMatching(rewritten) });
  });

  it('as the newest row with nothing after it: the anchor says rows were removed from the end (after a restart too)', async () => {
    const desk = await ownDesk();
    const target = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/reject', { id: target.id, reason: 'unknown payee', as: SECOND_ADMIN });
    const anchor = await anchored(desk);
    tamper(desk, (db) => {
      db.prepare('DELETE FROM audit_log WHERE seq = ?').run(anchor.seq);
      db.prepare("UPDATE withdrawal_requests SET state = 'approved' WHERE id = ?").run(Number(target.id));
    });
    // A restart does not forget what this workstation saw.
    const engine = await desk.reopen();
    const result = await callOn(engine, 'withdrawals/submit', { id: target.id, as: INITIATOR });
    expect(result).toMatchObject({ ok: false, error: { code: 'unverified' } });
    if (!result.ok) expect(result.error.message).toContain(`the audit log ends at row ${anchor.seq - 1}, but this workstation already saw row ${anchor.seq}: rows were removed from its end`);
    await expectNoOrder(desk, target.userOrder);
    // The refusal row now holds seq `anchor.seq`: the anchor stays, and the next attempt finds a rewritten row instead.
    await expectAnchorKept(desk, anchor);
    await expectSubmitRefused(desk, target, new RegExp(`row ${anchor.seq} is not the row this workstation saw`));
    expect(await submitRefusals(desk, target.userOrder)).toHaveLength(2);
  });
});

describe('the audit log cut short or rewritten, checked against a checkpoint', () => {
  it('truncated: audit/verify against the checkpoint names the first removed row', async () => {
    const desk = await ownDesk();
    const path = join(desk.dir, 'kept-elsewhere', 'checkpoint.json');
    mkdirSync(dirname(path));
    const request = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/approve', { id: request.id, as: APPROVER });
    const checkpoint = await desk.value('audit/checkpoint', { path });
    expect(await desk.value('audit/verify', { against: path })).toMatchObject({ ok: true, checkpoint: 'matched' });
    await anchored(desk);
    // The last 3 rows go: the checkpoint's own audit row, bob's approval and carol's request.
    const firstRemoved = tamper(desk, (db) => {
      const head = headRow(db).seq;
      expect(head).toBe(checkpoint.seq + 1);
      db.prepare('DELETE FROM audit_log WHERE seq > ?').run(head - 3);
      return head - 2;
    });
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: false, firstBadSeq: firstRemoved, reason: expect.stringContaining('rows were removed from its end') });
    expect(await desk.value('audit/verify', { against: path })).toMatchObject({ ok: false, firstBadSeq: firstRemoved, reason: expect.stringContaining('rows were removed from its end') });

    // The attacker also rolls this workstation's anchor back to the new head: the checkpoint kept elsewhere still says.
    const head = inspect(desk, (db) => headRow(db));
    await desk.vault.writeDeskEntry(anchorName(desk), JSON.stringify({ seq: head.seq, hash: head.hash }));
    expect(await desk.value('audit/verify', { against: path })).toMatchObject({
      ok: false,
      firstBadSeq: firstRemoved,
      reason: `the log ends at row ${head.seq}, but the checkpoint covers row ${checkpoint.seq}: rows ${firstRemoved} to ${checkpoint.seq} were removed`,
    });
  });

  it('one row rewritten and every hash and prev_hash after it recomputed: verification names the rewritten row', async () => {
    const desk = await ownDesk();
    const path = join(desk.dir, 'kept-elsewhere', 'checkpoint.json');
    mkdirSync(dirname(path));
    const request = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/approve', { id: request.id, as: APPROVER });
    await desk.value('audit/checkpoint', { path });
    await desk.value('withdrawals/cancel', { id: (await requestWithdrawal(desk, '20')).id, as: INITIATOR });
    const touched = tamper(desk, (db) => {
      // bob's approval gets another fingerprint in its body (kind and columns unchanged, so the columns still agree).
      const approve = decisionRows(db, requestColumns(db, request.id).intent_hash, 'approve')[0]!;
      const statement = parseStatement(approve.statement)!;
      const edited = encodeStatement({ ...statement, body: { ...statement.body, fingerprint: 'AAAA-AAAA-AAAA-AAAA' } });
      const rows = db.prepare('SELECT * FROM audit_log WHERE seq >= ? ORDER BY seq').all(approve.seq) as RawAuditRow[];
      let previous = approve.prev_hash;
      for (const row of rows) {
        const text = row.seq === approve.seq ? edited : row.statement;
        const hash = auditRowHash(text, row.signature);
        db.prepare('UPDATE audit_log SET statement = ?, prev_hash = ?, hash = ? WHERE seq = ?').run(text, previous, hash, row.seq);
        previous = hash;
      }
      return approve.seq;
    });
    expect(await desk.value('audit/verify', { against: path })).toMatchObject({
      ok: false,
      firstBadSeq: touched,
      reason: `row ${touched}'s signature does not verify with bob's key: it was altered`,
    });
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: false, firstBadSeq: touched });
  });

  it("as the newest row, with the database's desk id changed too: the anchor is named after the chain itself, not a setting", async () => {
    const desk = await ownDesk();
    const target = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/reject', { id: target.id, reason: 'unknown payee', as: SECOND_ADMIN });
    const anchor = await anchored(desk);
    const seq = tamper(desk, (db) => {
      const reject = headRow(db);
      db.prepare('DELETE FROM audit_log WHERE seq = ?').run(reject.seq);
      db.prepare("UPDATE withdrawal_requests SET state = 'awaitingApproval' WHERE id = ?").run(Number(target.id));
      db.prepare("UPDATE settings SET value_json = json_quote(lower(hex(randomblob(16)))) WHERE key = 'desk.id'").run();
      return reject.seq;
    });
    expect((await desk.value('withdrawals/approve', { id: target.id, as: APPROVER })).state).toBe('approved');
    await expectSubmitRefused(desk, target, new RegExp(`row ${seq} is not the row this workstation saw`));
    await expectAnchorKept(desk, anchor);
  });
});
