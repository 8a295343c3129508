// Pinned trust roots on a real PostgreSQL (issue 18, findings 1 and 4): the genesis fingerprint a joiner must confirm
// (a different one is refused, naming the one found) and a workstation checks against its keychain at every start (an
// edited copy in its database is noticed); a profile added four-eyes (proposed at A, confirmed at B,
// founded at A) reaches B with its founder; removing a founded profile and re-founding it is a four-eyes proposal,
// and a forged re-founding is refused by every workstation; rows a database user signs with keys they made (puppet
// founders of a profile added after team init, their request, approval and submission) send nothing and are named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { generateSigningKey, isReadableFingerprint } from '../../../electron/core/statements/keys';
import { canonicalHash, type StatementBody } from '../../../electron/core/statements/statement';
import { intentFingerprint, intentHash, type WithdrawalIntent } from '../../../electron/core/statements/intent';
import type { Desk } from '../engine/support';
import { ADMIN, SECOND_ADMIN, tronAddress } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, enrolAfterJoin, openFirstWorkstation, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';
import { appendForged, type ForgedStatement } from './forged-rows';

const ERIN = { operator: 'erin', passphrase: 'erin passphrase 55' };

interface Forger {
  readonly name: string;
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: string;
}

function puppet(name: string): Forger {
  const pair = generateSigningKey();
  return { name, keyId: pair.keyId, privateKey: pair.privateKey, publicKey: pair.publicKey };
}

/** Two `found` rows for puppet admins of `profile` (one signed by each), naming the attacker's desk key. */
function puppetFounding(profile: string, merchantId: string, admins: readonly Forger[], deskKey: Forger): ForgedStatement[] {
  const body: StatementBody = { admins: admins.map((admin) => ({ name: admin.name, publicKey: admin.publicKey })), deskKey: { publicKey: deskKey.publicKey }, merchantId };
  return admins.map((admin) => ({ profile, kind: 'found' as const, subject: canonicalHash(body), body, operator: admin.name, signer: admin }));
}

/** Rewrites a setting's JSON text in a desk database (someone editing the file); answers the text it held. */
function editSetting(dbPath: string, key: string, edit: (text: string) => string): string {
  const db = new Database(dbPath);
  try {
    const row = db.prepare('SELECT value_json AS value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    if (row === undefined) return expect.fail(`no setting ${key} in ${dbPath}`);
    const text = JSON.parse(row.value) as string;
    db.prepare('UPDATE settings SET value_json = ? WHERE key = ?').run(JSON.stringify(edit(text)), key);
    return text;
  } finally {
    db.close();
  }
}

async function expectNamed(workstation: Workstation, seq: number, reason: RegExp): Promise<void> {
  await within(`${workstation.name} names audit row ${seq}`, 5000, async () => (await workstation.value('team/status', {})).halted !== null);
  const view = await workstation.value('team/verify', {});
  expect(view.halted, workstation.name).toMatch(new RegExp(`audit row ${seq}: .*${reason.source}`));
  expect(view.refused.some((entry) => entry.rowName === `audit row ${seq}` && reason.test(entry.reason)), JSON.stringify(view.refused)).toBe(true);
}

describe('pinned genesis and profile changes on a team desk', () => {
  let desk: Desk;
  let a: Workstation;
  let b: Workstation & { readonly dbPath: string; restart(): Promise<Workstation> };

  beforeAll(async () => {
    await emptyTeamDatabase();
    ({ desk, a } = await openFirstWorkstation());
    await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
    b = await openWorkstation('B');
  }, 120_000);

  afterAll(async () => {
    for (const workstation of [b, a]) await workstation?.close();
  });

  it('shows the genesis fingerprint and refuses a join that confirms another one, naming the one it found', async () => {
    const status = await a.value('team/status', {});
    expect(status.genesis).toMatchObject({ profiles: ['main'], workstations: ['A'] });
    const fingerprint = status.genesis?.fingerprint ?? '';
    expect(isReadableFingerprint(fingerprint)).toBe(true);
    expect(await b.value('team/preview', { database: databaseUrl() })).toMatchObject({ genesis: { fingerprint } });
    const other = fingerprint === 'AAAA-AAAA-AAAA-AAAA' ? 'BBBB-BBBB-BBBB-BBBB' : 'AAAA-AAAA-AAAA-AAAA';
    const refused = await b.call('team/join', { database: databaseUrl(), workstation: 'B', as: ADMIN, genesis: other });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unverified', message: expect.stringContaining(`genesis fingerprint is ${fingerprint}, not ${other}`) } });
    expect(await b.value('team/status', {})).toMatchObject({ enabled: false, genesis: null });
    const joined = await b.value('team/join', { database: databaseUrl(), workstation: 'B', as: ADMIN, genesis: fingerprint.toLowerCase() });
    expect(joined.genesis?.fingerprint).toBe(fingerprint);
    await enrolAfterJoin(b, 'B', a, [SECOND_ADMIN]);
    // Checked again on every start, from the keychain: an edited copy in the desk database is noticed, never used.
    const copy = editSetting(b.dbPath, 'team.genesis', (text) => text.replace(/"name":"alice"/, '"name":"mallory"'));
    b = Object.assign(await b.restart(), { restart: b.restart, dbPath: b.dbPath });
    expect((await b.value('team/status', {})).halted).toMatch(/the desk database's copy of the pinned genesis \([A-Z2-7-]+\) is not the one pinned in the keychain \(/);
    editSetting(b.dbPath, 'team.genesis', () => copy);
    b = Object.assign(await b.restart(), { restart: b.restart, dbPath: b.dbPath });
    expect(await b.value('team/status', {})).toMatchObject({ halted: null, genesis: { fingerprint } });
    // Moving B's desk secrets to the file carries the pinned genesis and the team password with the desk key: started
    // again from the file, B still trusts its team and reaches its database (a genesis left in the keychain would halt it).
    await b.value('audit/moveAnchor', { to: 'file', as: SECOND_ADMIN });
    const inFile = Object.keys(JSON.parse(readFileSync(`${b.dbPath}.desk-secrets`, 'utf8')) as object);
    expect(inFile).toEqual(expect.arrayContaining(['key', expect.stringMatching(/^team-genesis\/[0-9a-f]{32}$/), expect.stringMatching(/^team-password\/[0-9a-f]{32}$/)]));
    b = Object.assign(await b.restart(), { restart: b.restart, dbPath: b.dbPath });
    expect(await b.value('team/status', {})).toMatchObject({ halted: null, genesis: { fingerprint } });
    await b.value('audit/moveAnchor', { to: 'keychain', as: SECOND_ADMIN });
    expect(JSON.parse(readFileSync(`${b.dbPath}.desk-secrets`, 'utf8'))).toEqual({});
    b = Object.assign(await b.restart(), { restart: b.restart, dbPath: b.dbPath });
    expect(await b.value('team/status', {})).toMatchObject({ halted: null, genesis: { fingerprint } });
  }, 90_000);

  it('adds a profile four-eyes: proposed at A, confirmed at B, founded at A, and B takes it with its founder', async () => {
    await a.value('profiles/importFile', { name: 'eu', path: desk.sandbox.credentialsPath });
    await a.value('profiles/select', { name: 'main' });
    const merchantId = desk.sandbox.credentials.merchantId;
    // Before the addition is in force, founding eu on the team desk is refused, saying how.
    await a.value('profiles/select', { name: 'eu' });
    const early = await a.call('operators/found', { admins: [ERIN] });
    expect(early).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('needs a profile addition in force') } });
    await a.value('profiles/select', { name: 'main' });
    const proposed = await a.value('profiles/proposeAdd', { name: 'eu', merchantId, founders: [ERIN], as: ADMIN });
    expect(proposed).toMatchObject({ kind: 'profile-add', subject: 'eu', applied: false, needsConfirmation: true });
    // alice cannot confirm her own proposal; frank, independent of her, confirms it at B.
    expect(await a.call('operators/confirm', { proposal: proposed.proposal, as: ADMIN })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await within('the proposal at B', 3000, async () => (await b.value('operators/list', {})).proposals.some((proposal) => proposal.id === proposed.proposal));
    await b.value('operators/confirm', { proposal: proposed.proposal, as: SECOND_ADMIN });
    await within('the confirmation at A', 3000, async () => !(await a.value('operators/list', {})).proposals.some((proposal) => proposal.id === proposed.proposal));
    await a.value('profiles/select', { name: 'eu' });
    const founded = await a.value('operators/found', { admins: [ERIN] });
    expect(founded.operators.map((operator) => [operator.name, operator.founding])).toEqual([['erin', true]]);
    await within('profile eu at B', 5000, async () => (await b.value('profiles/list', {})).some((profile) => profile.name === 'eu'));
    await b.value('profiles/select', { name: 'eu' });
    expect((await b.value('operators/list', {})).operators.map((operator) => operator.name)).toEqual(['erin']);
    await b.value('profiles/select', { name: 'main' });
    await a.value('profiles/select', { name: 'main' });
    for (const workstation of [a, b]) {
      const view = await workstation.value('team/verify', {});
      expect(view.halted, workstation.name).toBeNull();
    }
  }, 90_000);

  it('keeps a founded profile unless two admins remove it, and refuses a forged re-founding everywhere (finding 4)', async () => {
    const removal = await a.call('profiles/remove', { name: 'main', as: ADMIN });
    expect(removal).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('four-eyes proposal') } });
    const proposed = await a.value('profiles/proposeRemove', { name: 'main', as: ADMIN });
    expect(proposed).toMatchObject({ kind: 'profile-remove', applied: false, needsConfirmation: true });
    // alice alone cannot end the roster: it stands, and re-founding is refused.
    const refound = await a.call('operators/found', { admins: [{ operator: 'mallory', passphrase: 'mallory passphrase 9' }] });
    expect(refound).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('already founded') } });
    expect((await a.value('operators/list', {})).operators.filter((operator) => operator.founding).map((operator) => operator.name)).toEqual(['alice', 'frank']);
    // The same through the database: a desk-signed removal and puppet founders, signed by keys the attacker made.
    const deskKey = puppet('attacker-desk');
    const rows = await appendForged([
      { profile: 'main', kind: 'system', subject: 'main', body: { action: 'profiles/remove', details: { by: 'alice' } }, operator: null, signer: deskKey },
      ...puppetFounding('main', desk.sandbox.credentials.merchantId, [puppet('mallory'), puppet('trent')], deskKey),
    ]);
    for (const workstation of [a, b]) await expectNamed(workstation, rows[0]!.seq, /signed by desk key .* neither in the desk's pinned genesis/);
    expect((await b.value('operators/list', {})).operators.map((operator) => operator.name)).not.toContain('mallory');
  }, 60_000);
});

describe('puppet founders of a profile added after team init (finding 1)', () => {
  let desk: Desk;
  let a: Workstation;
  let b: Workstation;

  beforeAll(async () => {
    await emptyTeamDatabase();
    ({ desk, a } = await openFirstWorkstation());
    await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
    b = await openWorkstation('B');
    await joinTeam(b, 'B', a, []);
  }, 120_000);

  afterAll(async () => {
    for (const workstation of [b, a]) await workstation?.close();
  });

  it('sends nothing, shows no puppets, and names the refused found row at every workstation', async () => {
    await a.value('profiles/importFile', { name: 'eu', path: desk.sandbox.credentialsPath });
    const merchantId = desk.sandbox.credentials.merchantId;
    const [mallory, trent] = [puppet('mallory'), puppet('trent')];
    const deskKey = puppet('attacker-desk');
    const intent: WithdrawalIntent = {
      v: 1,
      merchantId,
      currency: 'trx.usdt',
      amount: '4321',
      toAddress: tronAddress(),
      withdrawType: 'normal',
      userOrder: `td-forged-${Date.now()}`,
      memo: null,
      requiredApprovals: 1,
      policy: 'default',
      requestedAt: Date.now(),
    };
    const subject = intentHash(intent);
    const rows = await appendForged([
      ...puppetFounding('eu', merchantId, [mallory, trent], deskKey),
      { profile: 'eu', kind: 'request', subject, body: { intent: JSON.parse(JSON.stringify(intent)) as StatementBody, warnings: [] }, operator: mallory.name, signer: mallory },
      { profile: 'eu', kind: 'approve', subject, body: { fingerprint: intentFingerprint(intent) }, operator: trent.name, signer: trent },
      { profile: 'eu', kind: 'submit', subject, body: { fingerprint: intentFingerprint(intent) }, operator: trent.name, signer: trent },
    ]);
    const found = rows[0]!.seq;
    const refusal = /profile eu is founded after the desk's pinned genesis .* without a profile addition in force/;
    for (const workstation of [a, b]) await expectNamed(workstation, found, refusal);
    // Workstation A's routine sync of eu sends nothing.
    await a.value('profiles/select', { name: 'eu' });
    await a.call('sync/run', {});
    expect(sandboxOrders(desk).filter((order) => order.userOrder === intent.userOrder)).toEqual([]);
    expect(await a.find(intent.userOrder)).toBeUndefined();
    const roster = await a.value('operators/list', {});
    expect(roster.founded).toBe(false);
    expect(roster.operators.map((operator) => operator.name)).toEqual([]);
    // The local audit log never took the forged rows: it verifies, and ends before them.
    const verified = await a.value('audit/verify', {});
    expect(verified).toMatchObject({ ok: true });
    expect(verified.rows).toBeLessThan(found);
    for (const workstation of [a, b]) expect((await workstation.value('team/status', {})).halted, workstation.name).toMatch(refusal);
  }, 60_000);
});
