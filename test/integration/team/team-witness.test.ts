// Witnessed sends on a real PostgreSQL (issue 18, finding 3): every send is preceded by fresh signed heads from the
// other enrolled workstations. Three workstations send without a doubled order; a state column flipped to submitting
// sends nothing (no traceable submit); a send waits while a workstation is unreachable, ignores an ack forged in its
// name, and goes once it answers; a workstation that left is no longer asked; a cancel row deleted in PostgreSQL by
// the owner role leads to no payment, and the sender names the witness whose verified head holds the row it lacks.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey, keyIdOf, readableFingerprint, signBytes } from '../../../electron/core/statements/keys';
import { headAckMessage } from '../../../electron/core/statements/head-ack';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, tronAddress, type Desk } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';

const T = TEAM_SCHEMA;
let desk: Desk;
let a: Workstation;
let b: Awaited<ReturnType<typeof openWorkstation>>;
let c: Awaited<ReturnType<typeof openWorkstation>>;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  c = await openWorkstation('C');
  await joinTeam(b, 'B', a, [INITIATOR]);
  await joinTeam(c, 'C', a, [INITIATOR]);
  // B holds the merchant credentials too: it is the sender of the finding-3 attack.
  await b.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
}, 120_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
});

function fingerprintOf(hash: string): string {
  return readableFingerprint(Buffer.from(hash, 'hex'));
}

function ordersFor(userOrder: string): number {
  return sandboxOrders(desk).find((order) => order.userOrder === userOrder)?.count ?? 0;
}

/** A request made at A and approved there, seen approved at every running workstation in `seenAt`. */
async function approvedRequest(amount: string, seenAt: readonly Workstation[]): Promise<string> {
  const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR });
  await a.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
  for (const workstation of seenAt) await within(`the approval at ${workstation.name}`, 5000, async () => (await workstation.find(withdrawal.userOrder))?.state === 'approved');
  return withdrawal.userOrder;
}

async function idAt(workstation: Workstation, userOrder: string): Promise<string> {
  const found = await workstation.find(userOrder);
  if (found === undefined) expect.fail(`${workstation.name} does not have ${userOrder}`);
  return found.id;
}

async function lastWitnessRequest(): Promise<number> {
  const [row] = await adminSql<{ id: string | null }>(`SELECT max(id) AS id FROM ${T}.witness_requests`);
  return Number(row?.id ?? 0);
}

describe('witnessed sends', () => {
  it('three workstations: every send is witnessed by the two others, and each request is one order at the service', async () => {
    for (const [index, sender] of [a, a, b].entries()) {
      const before = await lastWitnessRequest();
      const userOrder = await approvedRequest(`${21 + index}`, [b, c]);
      expect((await sender.value('withdrawals/submit', { id: await idAt(sender, userOrder), as: INITIATOR })).state).toBe('submitted');
      expect(ordersFor(userOrder)).toBe(1);
      const [request] = await adminSql<{ nonce: string; workstation: string }>(`SELECT nonce, workstation FROM ${T}.witness_requests WHERE id > $1 ORDER BY id`, [before]);
      expect(request?.workstation).toBe(sender.name);
      const acks = await adminSql<{ workstation: string }>(`SELECT DISTINCT workstation FROM ${T}.head_acks WHERE nonce = $1 ORDER BY workstation`, [request?.nonce]);
      expect(acks.map((ack) => ack.workstation)).toEqual(['A', 'B', 'C'].filter((name) => name !== sender.name));
      for (const workstation of [a, b, c]) await within(`the submission at ${workstation.name}`, 5000, async () => (await workstation.find(userOrder))?.state === 'submitted');
    }
    // Nothing doubled: one order per request for the whole run.
    expect(sandboxOrders(desk).every((order) => order.count === 1)).toBe(true);
  });

  it('sends nothing for a request whose state column says submitting but whose statements hold no approval and no submit', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '31', toAddress: tronAddress(), as: INITIATOR });
    const db = new Database(desk.dbPath);
    try {
      db.prepare("UPDATE withdrawal_requests SET state = 'submitting' WHERE id = ?").run(Number(withdrawal.id));
    } finally {
      db.close();
    }
    // The sync resolves a submitting request: the service has no order, so it would create one; the statements refuse it.
    await a.value('sync/run', {});
    expect(ordersFor(withdrawal.userOrder)).toBe(0);
    // The refusal is a desk-signed event: published to the team database, then in the audit log.
    let details = '';
    await within('the refusal in the audit log', 5000, async () => {
      const audit = await a.value('audit/list', { limit: 500 });
      const refusal = audit.rows.find((row) => row.action === 'withdrawals/submitRefused' && row.subject === withdrawal.userOrder);
      details = JSON.stringify(refusal?.details ?? null);
      return refusal !== undefined;
    });
    expect(details).toMatch(/no operator signed the submission/);
    expect(details).toMatch(/waiting for 1 approval/);
  });

  it('waits while a workstation holding a newer row is unreachable, ignores an ack forged in its name, and sends once it answers', async () => {
    const userOrder = await approvedRequest('41', [b, c]);
    // C writes the newest row, then becomes unreachable.
    await c.value('labels/set', { type: 'deposit', ref: 'API-ORDER-WITNESS', label: 'Newest at C', note: null, as: INITIATOR });
    await within('the label at A', 5000, async () => (await a.value('labels/search', { text: 'Newest at C' })).length === 1);
    await c.stop();

    const [enrolled] = await adminSql<{ data: { publicKey: string } }>(`SELECT data FROM ${T}.workstations WHERE key = 'C'`);
    const cKeyId = keyIdOf(String(enrolled?.data.publicKey));
    const before = await lastWitnessRequest();
    const sending = a.call('withdrawals/submit', { id: await idAt(a, userOrder), as: INITIATOR });
    // The database's owner answers in C's name: C's key id, the right nonce and head, signed with a key of their own.
    await within('the witness request', 5000, async () => (await lastWitnessRequest()) > before);
    const [request] = await adminSql<{ nonce: string }>(`SELECT nonce FROM ${T}.witness_requests WHERE id > $1 ORDER BY id LIMIT 1`, [before]);
    const [head] = await adminSql<{ seq: string; hash: string }>(`SELECT seq, hash FROM ${T}.audit_log ORDER BY seq DESC LIMIT 1`);
    const [deskRow] = await adminSql<{ desk_id: string }>(`SELECT desk_id FROM ${T}.desk_identity`);
    const forged = { deskId: String(deskRow?.desk_id), workstation: 'C', seq: Number(head?.seq), hash: String(head?.hash), nonce: String(request?.nonce), at: Date.now() };
    const attacker = generateSigningKey();
    await adminSql(`INSERT INTO ${T}.head_acks (desk_id, workstation, seq, hash, nonce, at, key_id, signature) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      forged.deskId,
      forged.workstation,
      forged.seq,
      forged.hash,
      forged.nonce,
      forged.at,
      cKeyId,
      signBytes(attacker.privateKey, headAckMessage(forged)),
    ]);
    await adminSql(`SELECT pg_notify('treasury_desk_witness', $1)`, [`ack:${forged.nonce}`]);

    const refused = await sending;
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const message = refused.ok ? '' : refused.error.message;
    expect(message).toMatch(/nothing was sent: workstation C \(an answer in its name did not verify against its enrolled desk key and was ignored\) did not confirm its verified audit head within 5 s/);
    expect(message).toMatch(/The submission is signed and waits in 'submitting': it is sent, once, when they confirm .*Start Treasury Desk on that workstation/);
    expect(message).not.toMatch(/workstation B/);
    expect(ordersFor(userOrder)).toBe(0);
    expect((await a.find(userOrder))?.state).toBe('submitting');

    // C answers again: the same request goes, once.
    c = Object.assign(c, await c.start());
    expect((await a.value('withdrawals/submit', { id: await idAt(a, userOrder), as: INITIATOR })).state).toBe('submitted');
    expect(ordersFor(userOrder)).toBe(1);
  }, 60_000);

  it('no longer asks a workstation that left: the admin-signed retirement takes it out of the quorum', async () => {
    const d = await openWorkstation('D');
    try {
      // D is enrolled through its device key, confirmed at A after the pinned genesis: it becomes a witness.
      await joinTeam(d, 'D', a, []);
      const witnessedBy = async (userOrder: string, before: number): Promise<string[]> => {
        expect((await a.value('withdrawals/submit', { id: await idAt(a, userOrder), as: INITIATOR })).state).toBe('submitted');
        const [request] = await adminSql<{ nonce: string }>(`SELECT nonce FROM ${T}.witness_requests WHERE id > $1 AND workstation = 'A' ORDER BY id LIMIT 1`, [before]);
        const acks = await adminSql<{ workstation: string }>(`SELECT DISTINCT workstation FROM ${T}.head_acks WHERE nonce = $1 ORDER BY workstation`, [request?.nonce]);
        return acks.map((ack) => ack.workstation);
      };
      let before = await lastWitnessRequest();
      expect(await witnessedBy(await approvedRequest('51', [b, c, d]), before)).toEqual(['B', 'C', 'D']);
      await d.value('team/leave', { as: ADMIN });
      await d.close();
      // D is gone for good: a send neither waits for it nor is refused for it.
      before = await lastWitnessRequest();
      const userOrder = await approvedRequest('52', [b, c]);
      expect(await witnessedBy(userOrder, before)).toEqual(['B', 'C']);
      expect(ordersFor(userOrder)).toBe(1);
    } finally {
      await d.close();
    }
  }, 60_000);

  it('finding 3: a cancel row deleted in PostgreSQL by the owner role leads to no payment; the sender names the witness holding it', async () => {
    const userOrder = await approvedRequest('3100', [b, c]);
    // B is not running while Alice cancels at A, so it never pulls the cancel.
    await b.stop();
    await a.value('withdrawals/cancel', { id: await idAt(a, userOrder), reason: 'wrong supplier', as: ADMIN });
    const [requestRow] = await adminSql<{ subject: string }>(`SELECT subject FROM ${T}.audit_log WHERE kind = 'request' AND statement LIKE $1`, [`%${userOrder}%`]);
    const [cancelRow] = await adminSql<{ seq: string; hash: string }>(`SELECT seq, hash FROM ${T}.audit_log WHERE kind = 'cancel' AND subject = $1`, [requestRow?.subject]);
    const cancelSeq = Number(cancelRow?.seq);
    expect(cancelSeq).toBeGreaterThan(0);
    await within('the cancel at C', 5000, async () => (await c.find(userOrder))?.state === 'cancelled');
    // The attacker, as the owner role, deletes the cancel row (and anything after it) and restores the projection.
    await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
    await adminSql(`DELETE FROM ${T}.audit_log WHERE seq >= $1`, [cancelSeq]);
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
    await adminSql(`UPDATE ${T}.withdrawal_requests SET data = jsonb_set(data, '{state}', '"approved"') WHERE key = $1`, [userOrder]);

    b = Object.assign(b, await b.start());
    expect((await b.find(userOrder))?.state).toBe('approved');
    const sent = await b.call('withdrawals/submit', { id: await idAt(b, userOrder), as: INITIATOR });
    expect(sent).toMatchObject({ ok: false, error: { code: 'unverified' } });
    const message = sent.ok ? '' : sent.error.message;
    // A (and C, which pulled the cancel too) witnessed a head holding the cancel: each is named with its row.
    expect(message).toMatch(/^nothing was sent: workstation A has verified audit row/);
    for (const name of ['A', 'C']) {
      expect(message).toMatch(new RegExp(`workstation ${name} has verified audit row (${cancelSeq}|\\d+) \\(.{19}\\), a row this workstation's chain lacks`));
    }
    expect(message).toMatch(new RegExp(`workstation A has verified audit row ${cancelSeq} \\(${fingerprintOf(String(cancelRow?.hash))}\\)`));
    expect(message).toMatch(/withheld or deleted rows|deleted or replaced/);
    expect(message).toMatch(/Run `team verify` on workstation A and C and here/);
    // Nothing reached the service; B's request is where it was, resumable; B's team status names the row.
    expect(ordersFor(userOrder)).toBe(0);
    expect((await b.find(userOrder))?.state).toBe('submitting');
    const status = await b.value('team/status', {});
    expect(status.refused.some((entry) => entry.source === 'witness' && entry.rowName === `audit row ${cancelSeq} at workstation A`)).toBe(true);
    // A, which verified the cancel, saw its chain rewritten and stopped trusting the team database.
    await within('A notices the rewrite', 5000, async () => (await a.value('team/status', {})).halted !== null);
  }, 60_000);
});
