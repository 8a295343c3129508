// Proof of control on a team desk (issue 21 item 2; real PostgreSQL, sandbox, two workstations): a proof completed at
// A (its desk key signs it) reaches B as a report that proves nothing there until B verified the same deposit itself;
// once B syncs it, the proof is in force at B, named as A's, satisfies "proven control above", and B signs no second
// proof; a proof row signed by a desk key no admin enrolled is refused at B, naming the row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlProofReportText } from '../../../electron/contract';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import { addApprovedToBook, creditDeposit, inspect, tamper } from '../approvals/support';
import { ADMIN, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { forgedRow } from './forged-rows';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';

const SEEN_WITHIN_MS = 5000;
const PROOF = 'addressbook/controlProven';

let desk: Desk;
let a: Workstation;
let b: Workstation & { readonly dbPath: string };
const payee = tronAddress();
const other = tronAddress();

const proofRows = async (workstation: Workstation): Promise<number> => (await workstation.value('audit/list', { action: PROOF, limit: 50 })).rows.length;
const provenControlFinding = async (workstation: Workstation, toAddress: string): Promise<{ refuses: boolean; text: string } | undefined> =>
  (await workstation.value('policies/test', { currency: 'trx.usdt', amount: '150', toAddress, initiator: INITIATOR.operator })).findings.find((finding) => finding.rule === 'provenControl');

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  await joinTeam(b, 'B', a, [INITIATOR]);
  await addApprovedToBook(desk, 'trx', payee);
  await addApprovedToBook(desk, 'trx', other);
  const change = await a.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, provenControlAbove: '100', as: ADMIN });
  if (!change.applied) await a.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  await within('the policy at B', SEEN_WITHIN_MS, async () => (await b.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.provenControlAbove === '100');
}, 180_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
});

describe('proof of control on a team desk', () => {
  it('a proof completed at A is only reported at B until B verified the deposit itself; then it is in force at B, named as A’s, and B signs no second proof', async () => {
    const asked = await a.value('addressbook/prove', { chain: 'trx', address: payee, as: INITIATOR });
    const depositAddress = asked.request?.depositAddress ?? '';
    expect(depositAddress).not.toBe('');
    await creditDeposit(desk, depositAddress, 'trx', '1', payee);
    await a.value('sync/run', {});
    // A's desk event reaches its own chain through the team database: wait for it, as for any published row.
    await within('the proof at A', SEEN_WITHIN_MS, async () => (await a.value('addressbook/proof', { chain: 'trx', address: payee })).status === 'proven');
    const atA = await a.value('addressbook/proof', { chain: 'trx', address: payee });
    expect(atA).toMatchObject({ status: 'proven', provenBy: { own: true, workstation: null }, reported: [], refused: [] });
    const txid = atA.evidence?.txid ?? '';
    expect(txid).not.toBe('');

    // B holds A's signed proof, but not the deposit (B holds no merchant credentials yet): reported, not proven.
    await within('the proof at B', SEEN_WITHIN_MS, async () => (await proofRows(b)) === 1);
    const reported = await b.value('addressbook/proof', { chain: 'trx', address: payee });
    expect(reported).toMatchObject({ status: 'waiting', standing: { proven: false }, provenBy: null, evidence: null, instructions: null, refused: [] });
    expect(reported.reported).toEqual([{ workstation: 'A', txid, apiOrder: atA.evidence?.apiOrder, at: atA.evidence?.at }]);
    const line = controlProofReportText(reported.reported[0] ?? { workstation: null, txid: '', apiOrder: '', at: 0 }, (ms) => new Date(ms).toISOString());
    expect(line).toContain('reported by workstation A');
    expect(line).toContain("not yet among this workstation's verified deposits");
    expect(line).toContain('sync deposits here');
    expect(await provenControlFinding(b, payee)).toMatchObject({ refuses: true, text: expect.stringContaining(`control of trx:${payee} is not proven`) });
    const preflight = await b.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '150', toAddress: payee });
    expect(preflight.errors.map((error) => error.message).join('\n')).toContain('("proven control above")');

    // B gets the credentials and syncs: its own verified deposit corroborates A's proof.
    await b.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
    await b.value('sync/run', {});
    const proven = await b.value('addressbook/proof', { chain: 'trx', address: payee });
    expect(proven).toMatchObject({ status: 'proven', standing: { proven: true, txid }, provenBy: { own: false, workstation: 'A' }, reported: [], refused: [], instructions: null });
    expect(proven.evidence).toMatchObject({ txid, fromAddress: payee, refusal: null });
    expect(await provenControlFinding(b, payee)).toMatchObject({ refuses: false, text: expect.stringContaining('control proven on') });
    // The intake at B found the userOrder proven by A's corroborated proof: one proof row on the desk, A's.
    expect(await proofRows(b)).toBe(1);
    expect(await proofRows(a)).toBe(1);
  });

  it('refuses at B a proof row signed by a desk key no admin enrolled, naming the row; the address stays unproven', async () => {
    const attacker = generateSigningKey();
    const evidence = (await b.value('addressbook/proof', { chain: 'trx', address: payee })).evidence;
    const head = inspect(b, (db) => db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string });
    const details = { chain: 'trx', address: other, userOrder: 'proof-planted', depositAddress: tronAddress(), txid: evidence?.txid ?? '', apiOrder: evidence?.apiOrder ?? '', fromAddress: other, currency: 'trx', amount: '1', fee: '0', seenAt: Date.now() };
    const row = forgedRow(head, { kind: 'system', subject: `trx:${other}`, body: { action: PROOF, details }, operator: null, signer: attacker });
    tamper(b, (db) => {
      db.prepare('INSERT INTO audit_log (seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)').run(
        row.seq, row.at, row.profile, row.kind, row.action, row.subject, row.keyId, row.statement, row.signature, row.prevHash, row.hash,
      );
    });
    const planted = await b.value('addressbook/proof', { chain: 'trx', address: other });
    expect(planted.standing.proven).toBe(false);
    expect(planted.reported).toEqual([]);
    expect(planted.refused).toEqual([`audit row ${row.seq} claims a control proof but is not signed by a desk key of this desk`]);
    expect((await provenControlFinding(b, other))?.refuses).toBe(true);
  });
});
