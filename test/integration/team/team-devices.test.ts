// Public keys only in the team database (issue 18 item 5, finding 7's sealed-key half) on a real PostgreSQL: each
// operator has a key per workstation; a device key made at a workstation signs there once the operator's key at
// another workstation or an admin confirms it (and an admin's confirmation of a joining admin's key enrols the
// workstation); a confirmation by anyone else is refused, locally and on replay, naming the row; and after a full team
// flow no table of the team database holds a sealed (or any private) key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, VIEWER } from '../engine/support';
import { adminSql, confirmDeviceAt, databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';
import { appendForged, appendForgedRow } from './forged-rows';

const T = TEAM_SCHEMA;
let a: Workstation;
let b: Workstation;
let c: Workstation;

beforeAll(async () => {
  await emptyTeamDatabase();
  a = (await openFirstWorkstation()).a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  c = await openWorkstation('C');
  await joinTeam(b, 'B', a);
  // C: only alice's key (her device key there, confirmed with her key at A, which enrolled C).
  await joinTeam(c, 'C', a, []);
}, 180_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
});

describe('device keys on a team desk', () => {
  it('an approver approves at a workstation with a device key an admin confirmed; the approval counts and the operator joins the admin’s party', async () => {
    const proposed = await c.value('operators/addDevice', APPROVER);
    expect(proposed).toMatchObject({ operator: 'bob', workstation: 'C' });
    expect(await c.call('withdrawals/list', { limit: 1 })).toMatchObject({ ok: true });
    await confirmDeviceAt(a, proposed.id, SECOND_ADMIN);
    await within('bob’s device key in force at C', 5_000, async () => (await c.value('operators/list', {})).operators.find((entry) => entry.name === 'bob')?.devices.some((device) => device.workstation === 'C') === true);
    const bob = (await a.value('operators/list', {})).operators.find((entry) => entry.name === 'bob');
    expect(bob?.party).toEqual(['bob', 'frank']);
    expect(bob?.devices).toContainEqual({ workstation: 'C', keyFingerprint: proposed.keyFingerprint, confirmedBy: 'frank' });
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '13', toAddress: tronAddress(), as: INITIATOR });
    await within('the request at C', 5_000, async () => (await c.find(withdrawal.userOrder)) !== undefined);
    const atC = await c.find(withdrawal.userOrder);
    expect((await c.value('withdrawals/approve', { id: atC?.id, as: APPROVER })).state).toBe('approved');
    await within('bob’s approval at A', 5_000, async () => (await a.find(withdrawal.userOrder))?.state === 'approved');
    // The approval row is signed with the device key, and A counts it.
    const [row] = await adminSql<{ key_id: string }>(`SELECT key_id FROM ${T}.audit_log WHERE kind = 'approve' AND operator = 'bob' ORDER BY seq DESC LIMIT 1`);
    expect(row?.key_id).toBe(proposed.keyFingerprint);
  });

  it('refuses a confirmation by someone who is neither the operator nor an admin, and the device key does not sign', async () => {
    const proposed = await c.value('operators/addDevice', VIEWER);
    await within('dave’s device key at A', 5_000, async () => (await a.value('operators/list', {})).pendingDevices.some((device) => device.id === proposed.id));
    const refused = await a.call('operators/confirmDevice', { proposal: proposed.id, as: INITIATOR });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('carol may not confirm dave') } });
    expect(await c.call('operators/changePassphrase', { operator: VIEWER.operator, passphrase: VIEWER.passphrase, newPassphrase: 'dave passphrase 45' })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('dave has no key on this workstation') },
    });
  });

  it('keeps no sealed or private key anywhere in the team database after a full team flow', async () => {
    // More key material moving: a passphrase change at B (a new seal of bob's device key there), an invitation
    // accepted at B, and erin's device key at C confirmed with her key at B.
    await b.value('operators/changePassphrase', { operator: APPROVER.operator, passphrase: APPROVER.passphrase, newPassphrase: 'bob passphrase 23' });
    const erin = { operator: 'erin', passphrase: 'erin passphrase 55' };
    const invitation = await a.value('operators/invite', { name: erin.operator, role: 'viewer', as: ADMIN });
    await within('the invitation at B', 5_000, async () => (await b.value('operators/list', {})).proposals.some((proposal) => proposal.id === invitation.proposal));
    await b.value('operators/accept', { name: erin.operator, code: invitation.code, passphrase: erin.passphrase });
    await within('the acceptance at A', 5_000, async () => (await a.value('operators/list', {})).proposals.some((proposal) => proposal.id === invitation.proposal && proposal.acceptedKey !== null));
    await a.value('operators/confirm', { proposal: invitation.proposal, as: SECOND_ADMIN });
    await within('erin active at C', 5_000, async () => (await c.value('operators/list', {})).operators.find((entry) => entry.name === 'erin')?.status === 'active');
    const device = await c.value('operators/addDevice', erin);
    await confirmDeviceAt(b, device.id, erin);
    await within('erin’s device key at C', 5_000, async () => (await c.value('operators/list', {})).operators.find((entry) => entry.name === 'erin')?.devices.length === 1);

    const tables = await adminSql<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [T]);
    expect(tables.map((table) => table.tablename)).toContain('operators');
    for (const { tablename } of tables) {
      const rows = await adminSql<{ text: string }>(`SELECT t::text AS text FROM ${T}.${tablename} t`);
      const text = rows.map((row) => row.text).join('\n');
      for (const secret of [/sealed/i, /ciphertext/i, /"kdf"/, /scrypt/i, /privateKey/i, /PRIVATE KEY/]) expect(text, `${tablename} holds ${String(secret)}`).not.toMatch(secret);
    }
    // The operators rows name public keys (the founders', the accepted ones, the device keys with their workstation).
    const operators = await adminSql<{ data: Record<string, unknown> }>(`SELECT data FROM ${T}.operators`);
    for (const row of operators) expect(Object.keys(row.data).sort()).toEqual(['keyId', 'name', 'profile', 'publicKey', 'workstation']);
    expect(operators.map((row) => row.data)).toContainEqual({ profile: 'main', name: 'erin', keyId: device.keyFingerprint, publicKey: expect.any(String), workstation: 'C' });
    expect(operators.map((row) => row.data['name'])).toEqual(expect.arrayContaining(['alice', 'frank', 'bob', 'carol', 'dave', 'erin']));
  });

  it("refuses on replay, naming the row, a device key for alice confirmed by an attacker's key", async () => {
    const attacker = generateSigningKey();
    const [proposal] = await appendForged([{ kind: 'device', operator: 'alice', subject: 'alice', body: { workstation: 'X', publicKey: attacker.publicKey, deskKey: generateSigningKey().publicKey }, signer: attacker }]);
    const forged = await appendForgedRow({ kind: 'confirm', operator: 'alice', subject: 'alice', body: { proposal: String(proposal?.hash), keyId: attacker.keyId }, signer: generateSigningKey() });
    for (const workstation of [a, b, c]) {
      const view = await workstation.value('team/verify', {});
      expect(view.halted, workstation.name).toMatch(new RegExp(`audit row ${forged}: row ${forged} \\(confirm by alice\\) does not hold: confirmation refused: alice's key is `));
      expect(view.refused.some((entry) => entry.rowName === `audit row ${forged}`), workstation.name).toBe(true);
      expect((await workstation.value('operators/list', {})).operators.find((entry) => entry.name === 'alice')?.devices.some((device) => device.keyFingerprint === attacker.keyId), workstation.name).toBe(false);
    }
  });
});
