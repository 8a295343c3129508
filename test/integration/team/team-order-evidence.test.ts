// Finding 2 of issue 18 on a real PostgreSQL: desk-signed rows written straight into the team database. A `withdrawals/
// status` "fail" for a real pending order signed by a genuinely enrolled workstation's desk key but without the
// service's signed answer is kept in the audit log and reported, not applied: the order stays submitted everywhere and
// A (holding the credentials) keeps tracking it to its real outcome, which reaches B with the service's signature.
// A forged `profiles/remove` from that key halts nothing. The same "fail" signed by a key the attacker made is refused
// at every workstation, naming the row; the order still does not move, and nothing more reaches the sandbox.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskIdentity, keychainDeskSecrets } from '../../../electron/core/audit/desk-identity';
import { createEngine, type Engine } from '../../../electron/core/engine';
import { KeychainVault } from '../../../electron/core/secrets';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import type { StatementBody } from '../../../electron/core/statements/statement';
import type { Desk } from '../engine/support';
import { ADMIN, APPROVER, INITIATOR, tronAddress } from '../engine/support';
import { confirmDeviceAt, databaseUrl, emptyTeamDatabase, genesisOf, joinTeam, openFirstWorkstation, openTestStore, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';
import { appendForgedRow } from './forged-rows';

let desk: Desk;
let a: Workstation;
let b: Workstation;
let mallory: { engine: Engine; identity: DeskIdentity; dir: string };
let userOrder: string;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  await joinTeam(b, 'B', a, [APPROVER]);
  // A workstation an admin genuinely enrolled, whose desk key the attacker then uses (its keychain entry is the key).
  const dir = mkdtempSync(join(tmpdir(), 'td-team-M-'));
  const vault = new KeychainVault({ service: `treasury-desk-test-${randomBytes(6).toString('hex')}` });
  const engine = await createEngine({ dbPath: join(dir, 'desk.sqlite'), vault, cryptoThreads: 1, openSharedStore: openTestStore });
  const joined = await engine.handlers['team/join']({ database: databaseUrl(), workstation: 'M', as: ADMIN, genesis: await genesisOf(a) } as never);
  expect(joined.ok).toBe(true);
  // alice's device key made at M, confirmed at A: her confirmation there enrols M's desk key.
  const listed = (await engine.handlers['operators/list']({} as never)) as { ok: boolean; value?: { pendingDevices: readonly { id: string; workstation: string }[] } };
  const mine = listed.value?.pendingDevices.find((device) => device.workstation === 'M');
  expect(mine).toBeDefined();
  await confirmDeviceAt(a, mine?.id ?? '', ADMIN);
  const enrolmentOfM = async (): Promise<string | null> => {
    const answer = (await engine.handlers['team/status']({} as never)) as { ok: boolean; value?: { enrolment: string | null } };
    return answer.ok ? (answer.value?.enrolment ?? null) : 'team/status failed';
  };
  await within('M enrolled', 10_000, async () => (await enrolmentOfM()) === null);
  mallory = { engine, identity: await DeskIdentity.load(keychainDeskSecrets(vault)), dir };

  const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '31', toAddress: tronAddress(), as: INITIATOR });
  userOrder = withdrawal.userOrder;
  await within('the request at B', 5000, async () => (await b.find(userOrder))?.state === 'awaitingApproval');
  await b.value('withdrawals/approve', { id: (await b.find(userOrder))!.id, as: APPROVER });
  await within('the approval at A', 5000, async () => (await a.find(userOrder))?.state === 'approved');
  expect((await a.value('withdrawals/submit', { id: (await a.find(userOrder))!.id, as: INITIATOR })).state).toBe('submitted');
  await within('the submission at B', 5000, async () => (await b.find(userOrder))?.state === 'submitted');
}, 180_000);

afterAll(async () => {
  await mallory?.engine.close();
  if (mallory) rmSync(mallory.dir, { recursive: true, force: true });
  for (const workstation of [b, a]) await workstation?.close();
});

const failStatus: StatementBody = { action: 'withdrawals/status', details: { status: 'fail', source: 'query', txid: null } };

describe('finding 2: desk-signed order outcomes and profile removals', () => {
  it('does not take an enrolled workstation’s "fail" without the service’s signature: kept, reported, the order tracked to its real end', async () => {
    const seq = await appendForgedRow({ kind: 'system', subject: userOrder, body: failStatus, operator: null, signer: mallory.identity });
    for (const workstation of [a, b]) {
      await within(`row ${seq} verified at ${workstation.name}`, 5000, async () => (await workstation.value('team/status', {})).verifiedSeq >= seq);
      const status = await workstation.value('team/status', {});
      expect(status.halted).toBeNull();
      const reported = status.refused.find((entry) => entry.source === 'apply' && entry.rowName === `audit row ${seq}`);
      expect(reported?.reason, JSON.stringify(status.refused)).toMatch(/\(system withdrawals\/status\) is verified but this workstation applied nothing for it: it reports order .* as fail without the service's signed answer/);
      expect(await workstation.find(userOrder)).toMatchObject({ state: 'submitted', outcome: null });
    }

    const seqRemove = await appendForgedRow({ kind: 'system', subject: 'main', body: { action: 'profiles/remove', details: { by: null, keychainEntries: 0, historyKept: true } }, operator: null, signer: mallory.identity });
    await within('the removal verified at B', 5000, async () => (await b.value('team/status', {})).verifiedSeq >= seqRemove);
    // The next legitimate decisions still hold everywhere: no roster ended.
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '12', toAddress: tronAddress(), as: INITIATOR });
    await within('the next request at B', 5000, async () => (await b.find(withdrawal.userOrder))?.state === 'awaitingApproval');
    await b.value('withdrawals/approve', { id: (await b.find(withdrawal.userOrder))!.id, as: APPROVER });
    await within('the next approval at A', 5000, async () => (await a.find(withdrawal.userOrder))?.state === 'approved');
    for (const workstation of [a, b]) expect((await workstation.value('team/status', {})).halted).toBeNull();

    // A holds the credentials and keeps tracking the order: its real outcome comes with the service's signature, and B takes it.
    const merchantId = desk.sandbox.credentials.merchantId;
    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) expect((await desk.admin('POST', `/withdrawals/${merchantId}/${userOrder}/advance`, { to })).status).toBe(200);
    await a.value('sync/run', {});
    expect(await a.find(userOrder)).toMatchObject({ state: 'completed', outcome: 'success' });
    await within('the signed final status at B', 5000, async () => (await b.find(userOrder))?.state === 'completed');
    expect(await b.find(userOrder)).toMatchObject({ outcome: 'success' });
    for (const workstation of [a, b]) expect((await workstation.value('audit/verify', {})).ok).toBe(true);
  }, 120_000);

  it('refuses a "fail" signed by a key the attacker made, naming the row at every workstation, and moves nothing', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '13', toAddress: tronAddress(), as: INITIATOR });
    const pending = withdrawal.userOrder;
    await within('the request at B', 5000, async () => (await b.find(pending))?.state === 'awaitingApproval');
    await b.value('withdrawals/approve', { id: (await b.find(pending))!.id, as: APPROVER });
    await within('the approval at A', 5000, async () => (await a.find(pending))?.state === 'approved');
    expect((await a.value('withdrawals/submit', { id: (await a.find(pending))!.id, as: INITIATOR })).state).toBe('submitted');
    await within('the submission at B', 5000, async () => (await b.find(pending))?.state === 'submitted');

    const attacker = generateSigningKey();
    const seq = await appendForgedRow({ kind: 'system', subject: pending, body: { ...failStatus }, operator: null, signer: attacker });
    for (const workstation of [a, b]) {
      const view = await workstation.value('team/verify', {});
      const refusal = view.refused.find((entry) => entry.rowName === `audit row ${seq}`);
      expect(refusal?.reason, JSON.stringify(view.refused)).toMatch(new RegExp(`row ${seq} is signed by desk key ${attacker.keyId}, which is neither in the desk's pinned genesis nor enrolled by an admin's team/workstation statement since`));
      expect(await workstation.find(pending)).toMatchObject({ state: 'submitted', outcome: null });
    }
    expect(sandboxOrders(desk).filter((order) => order.userOrder === pending)).toEqual([{ userOrder: pending, count: 1 }]);
  }, 120_000);
});
