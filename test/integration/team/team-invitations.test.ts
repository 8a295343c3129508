// Finding 5 of issue 18 on a real PostgreSQL: an `accept` row for an open invitation, signed by an attacker's key and
// appended to the shared chain by whoever holds the database password, is refused on replay at every workstation,
// naming the row, with no proof of the code or with a guessed code; a wrong code is refused locally and appends no
// acceptance; once the forged row is gone the real invitee accepts with the code and the other workstations see it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationCodeKey, signInvitationProof } from '../../../electron/core/ledger/invitation-code';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';
import { appendForgedRow } from './forged-rows';

const T = TEAM_SCHEMA;
const INVITEE = { name: 'erin', passphrase: 'erin passphrase 55' };
let a: Workstation;
let bHandle: Awaited<ReturnType<typeof openWorkstation>>;
let cHandle: Awaited<ReturnType<typeof openWorkstation>>;
let b: Workstation;
let c: Workstation;

beforeAll(async () => {
  await emptyTeamDatabase();
  a = (await openFirstWorkstation()).a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  bHandle = await openWorkstation('B');
  cHandle = await openWorkstation('C');
  b = bHandle;
  c = cHandle;
  await joinTeam(b, 'B', a, []);
  await joinTeam(c, 'C', a, []);
}, 120_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
});

/** The database's owner removes a row (restoring the chain the workstations verified). */
async function removeRow(seq: number): Promise<void> {
  await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
  await adminSql(`DELETE FROM ${T}.audit_log WHERE seq = $1`, [seq]);
  await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
}

async function refusesRow(workstation: Workstation, seq: number, reason: RegExp): Promise<void> {
  const view = await workstation.value('team/verify', {});
  expect(view.halted, workstation.name).toMatch(new RegExp(`audit row ${seq}: row ${seq} \\(accept by erin\\) does not hold: `));
  expect(view.halted, workstation.name).toMatch(reason);
  expect(view.refused.some((entry) => entry.rowName === `audit row ${seq}`), workstation.name).toBe(true);
  const roster = await workstation.value('operators/list', {});
  expect(roster.operators.find((operator) => operator.name === 'erin'), workstation.name).toMatchObject({ status: 'invited', keyFingerprint: null });
}

describe('an invitation bound to its code on a team desk', () => {
  it("refuses an attacker's accept row at every workstation, and a wrong code locally; the invitee then accepts with the code", async () => {
    const invitation = await a.value('operators/invite', { name: INVITEE.name, role: 'approver', as: ADMIN });
    for (const workstation of [b, c]) {
      await within(`the invitation at ${workstation.name}`, 5_000, async () => (await workstation.value('operators/list', {})).proposals.some((proposal) => proposal.id === invitation.proposal));
    }
    // A wrong code, locally: refused, and no acceptance is written anywhere.
    const [before] = await adminSql<{ seq: string }>(`SELECT max(seq) AS seq FROM ${T}.audit_log WHERE kind = 'accept'`);
    const wrong = await b.call('operators/accept', { name: INVITEE.name, code: 'AAAA-AAAA-AAAA-A', passphrase: INVITEE.passphrase });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'wrongPassphrase', message: expect.stringContaining('invitation code is not right') } });
    const [after] = await adminSql<{ seq: string }>(`SELECT max(seq) AS seq FROM ${T}.audit_log WHERE kind = 'accept'`);
    expect(after?.seq).toBe(before?.seq);

    // Finding 5: an accept row signed by the attacker's own key, without the code.
    const attacker = generateSigningKey();
    const bare = await appendForgedRow({ kind: 'accept', operator: 'erin', subject: 'erin', body: { proposal: invitation.proposal, publicKey: attacker.publicKey }, signer: attacker });
    for (const workstation of [a, b, c]) await refusesRow(workstation, bare, /carries no proof of the invitation code/);
    await removeRow(bare);
    b = await bHandle.restart();
    c = await cHandle.restart();

    // The same with a guessed code: refused on replay as well.
    const guessed = signInvitationProof(invitationCodeKey('BBBB-BBBB-BBBB-B', 'erin'), invitation.proposal, attacker.publicKey);
    const forged = await appendForgedRow({ kind: 'accept', operator: 'erin', subject: 'erin', body: { proposal: invitation.proposal, publicKey: attacker.publicKey, codeProof: guessed }, signer: attacker });
    for (const workstation of [b, c]) await refusesRow(workstation, forged, /does not prove the invitation code/);
    await removeRow(forged);
    b = await bHandle.restart();
    c = await cHandle.restart();

    // The real invitee, with the code, at B: C sees the key she accepted with.
    const accepted = await b.value('operators/accept', { name: INVITEE.name, code: invitation.code, passphrase: INVITEE.passphrase });
    expect(accepted.keyFingerprint).not.toBeNull();
    await within('the acceptance at C', 5_000, async () => (await c.value('operators/list', {})).proposals.some((proposal) => proposal.id === invitation.proposal && proposal.acceptedKey === accepted.keyFingerprint));
    for (const workstation of [b, c]) expect((await workstation.value('team/status', {})).halted, workstation.name).toBeNull();
  });
});
