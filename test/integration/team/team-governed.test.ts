// Issue 20's rules on a team desk against the team database's owner (real PostgreSQL, sandbox, two workstations): the
// inputs of the evaluation edited in PostgreSQL (request rows' states and amounts, the audit columns' dates, a planted
// address-book row, a signed freeze row) change no outcome at either workstation: the daily total still counts what
// was signed, an address not added by signed statements stays refused under "only from book", and a freeze row edited
// to read as lifted still holds the send (the verified copy decides) while every workstation names the rewritten row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { adminSql, joinTeam, openWorkstation, sandboxOrders, startTeamAtA, within, type Workstation } from './desk-support';

const T = TEAM_SCHEMA;
const SEEN_WITHIN_MS = 3000;
const DAY_MS = 86_400_000;

let desk: Desk;
let a: Workstation;
let c: Workstation;

beforeAll(async () => {
  ({ desk, a } = await startTeamAtA());
  c = await openWorkstation('C');
  await joinTeam(c, 'C', a, [APPROVER, INITIATOR]);
}, 120_000);

afterAll(async () => {
  for (const workstation of [c, a]) await workstation?.close();
});

async function setPolicy(policy: { dailyLimit: string | null; onlyFromBook: boolean }): Promise<void> {
  const change = await a.value('policies/set', { currency: 'trx.usdt', thresholds: [], useFinancialConfirmation: false, ...policy, as: ADMIN });
  await a.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  await within('the policy at C', SEEN_WITHIN_MS, async () => (await c.value('policies/list', {})).find((entry) => entry.currency === 'trx.usdt')?.dailyLimit === policy.dailyLimit);
}

/** Runs `edit` on the team database with its triggers off, as its owner could. */
async function asOwner(edit: () => Promise<void>): Promise<void> {
  await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
  try {
    await edit();
  } finally {
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
  }
}

describe('the rules on a team desk, with the team database edited', () => {
  it('the daily total at another workstation counts the signed requests, whatever their rows and dates say', async () => {
    await setPolicy({ dailyLimit: '30', onlyFromBook: false });
    const first = (await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '25', toAddress: tronAddress(), as: INITIATOR })).withdrawal;
    await within('the request at C', SEEN_WITHIN_MS, async () => (await c.find(first.userOrder)) !== undefined);
    const [row] = await adminSql<{ seq: string; at: string }>(`SELECT seq, at FROM ${T}.audit_log WHERE kind = 'request' AND statement LIKE $1`, [`%${first.userOrder}%`]);
    await asOwner(async () => {
      await adminSql(`UPDATE ${T}.withdrawal_requests SET data = jsonb_set(jsonb_set(data, '{state}', '"cancelled"'), '{amount}', '"1"') WHERE key = $1`, [first.userOrder]);
      await adminSql(`UPDATE ${T}.audit_log SET at = $1 WHERE seq = $2`, [Number(row?.at) - 2 * DAY_MS, Number(row?.seq)]);
    });
    const refused = await c.call('withdrawals/request', { currency: 'trx.usdt', amount: '20', toAddress: tronAddress(), as: INITIATOR });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/the daily limit is 30; 25 was already requested today, so at most 5 remains/) } });
    const simulated = await c.value('policies/test', { currency: 'trx.usdt', amount: '20', toAddress: tronAddress() });
    expect(simulated.findings.find((finding) => finding.rule === 'dailyLimit')).toMatchObject({ refuses: true });
    await asOwner(async () => {
      await adminSql(`UPDATE ${T}.withdrawal_requests SET data = jsonb_set(jsonb_set(data, '{state}', '"awaitingApproval"'), '{amount}', '"25"') WHERE key = $1`, [first.userOrder]);
      await adminSql(`UPDATE ${T}.audit_log SET at = $1 WHERE seq = $2`, [Number(row?.at), Number(row?.seq)]);
    });
    await a.value('withdrawals/cancel', { id: first.id, as: INITIATOR });
  }, 60_000);

  it('an address-book row planted in the database does not open "only from book"', async () => {
    await setPolicy({ dailyLimit: null, onlyFromBook: true });
    const planted = tronAddress();
    await adminSql(`INSERT INTO ${T}.address_book (key, data) VALUES ($1, $2)`, [
      `main/trx:${planted}`,
      { profile: 'main', chain: 'trx', address: planted, label: 'Supplier', state: 'inForce', proposer: 'carol', confirmedBy: 'bob' },
    ]);
    for (const workstation of [a, c]) {
      const check = await workstation.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: planted });
      expect(check.errors.map((issue) => issue.message).join(' '), workstation.name).toMatch(/allows only addresses from the address book/);
      const request = await workstation.call('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: planted, as: INITIATOR });
      expect(request.ok ? null : request.error.message, workstation.name).toMatch(/allows only addresses from the address book/);
    }
    await adminSql(`DELETE FROM ${T}.address_book WHERE key = $1`, [`main/trx:${planted}`]);
    await setPolicy({ dailyLimit: null, onlyFromBook: false });
  }, 60_000);

  it('a freeze row edited in the database to read as lifted still holds the send, and every workstation names the row', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '12', toAddress: tronAddress(), as: INITIATOR });
    await within('the request at C', SEEN_WITHIN_MS, async () => (await c.find(withdrawal.userOrder)) !== undefined);
    const atC = await c.find(withdrawal.userOrder);
    await c.value('withdrawals/approve', { id: atC?.id ?? '', as: APPROVER });
    await a.value('sending/freeze', { reason: 'team drill', as: ADMIN });
    await within('the freeze at C', SEEN_WITHIN_MS, async () => (await c.value('sending/state', {})).frozen?.reason === 'team drill');

    // The owner turns the freeze into something else: the signed row no longer matches its hash.
    const [row] = await adminSql<{ seq: string }>(`SELECT seq FROM ${T}.audit_log WHERE kind = 'freeze' ORDER BY seq DESC LIMIT 1`);
    const seq = Number(row?.seq);
    await asOwner(() => adminSql(`UPDATE ${T}.audit_log SET statement = replace(statement, '"team drill"', '"lifted"'), kind = 'system' WHERE seq = $1`, [seq]).then(() => undefined));
    // The send still stands on the verified copy of the chain: the freeze holds it, as before the edit.
    const sent = await a.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(sent.ok ? null : sent.error).toMatchObject({ code: 'held', message: expect.stringMatching(/sending is frozen by alice since .* \(team drill\)/) });
    expect(sandboxOrders(desk).some((order) => order.userOrder === withdrawal.userOrder)).toBe(false);
    for (const workstation of [a, c]) {
      expect((await workstation.value('team/verify', {})).halted, workstation.name).toMatch(new RegExp(`audit row ${seq}`));
      expect((await workstation.value('sending/state', {})).frozen?.reason, workstation.name).toBe('team drill');
    }

    // Put back: the freeze still holds the send until a second admin lifts it.
    await asOwner(() => adminSql(`UPDATE ${T}.audit_log SET statement = replace(statement, '"lifted"', '"team drill"'), kind = 'freeze' WHERE seq = $1`, [seq]).then(() => undefined));
    for (const workstation of [a, c]) expect((await workstation.value('team/verify', {})).halted, workstation.name).toBeNull();
    const held = await a.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(held).toMatchObject({ ok: false, error: { code: 'held', message: expect.stringMatching(/sending is frozen by alice/) } });
    const lifting = await a.value('sending/unfreeze', { as: ADMIN });
    await a.value('operators/confirm', { proposal: lifting.lift?.id, as: SECOND_ADMIN });
    expect((await a.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR })).state).not.toBe('approved');
  }, 90_000);
});
