// Anchors that cannot be side-stepped (issue 18, item 8, finding 6): a desk run under another keychain service name (a
// fresh, unanchored keychain) or with a desk key its chain never enrolled refuses to submit, saying why and what to do,
// and sends nothing; a desk that keeps its key in the keychain refuses to start without it even when a file stands
// beside its database (no D-Bus); a desk kept in the file keeps using it when a keychain appears (no silent switch of
// identity); moving between the two is an explicit step an admin signs (`audit anchor --move-to`).
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WithdrawalView } from '../../../electron/contract';
import { KeychainVault } from '../../../electron/core/secrets';
import { exportPrivateKey, generateSigningKey } from '../../../electron/core/statements/keys';
import { ADMIN, APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, processEnv, setUpDesk, spawnCli, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
let id: string;
const otherServices: string[] = [];

function otherService(): string {
  const service = `treasury-desk-test-${randomBytes(6).toString('hex')}`;
  otherServices.push(service);
  return service;
}

function deskSql(sql: string): unknown {
  const db = new Database(desk.dbPath, { readonly: true });
  try {
    return db.prepare(sql).pluck().get();
  } finally {
    db.close();
  }
}

function firstRowHash(): string {
  return String(deskSql('SELECT hash FROM audit_log WHERE seq = 1'));
}

function sandboxOrders(): number {
  const file = readdirSync(desk.sandbox.dataDir).find((name) => name.endsWith('.sqlite') || name.endsWith('.db'));
  const db = new Database(join(desk.sandbox.dataDir, file ?? 'missing'), { readonly: true });
  try {
    return Number(db.prepare('SELECT count(*) FROM withdrawals').pluck().get());
  } finally {
    db.close();
  }
}

async function state(): Promise<string> {
  return json<WithdrawalView>(expectOk(await desk.cli(['withdraw', 'status', id, '--json']))).state;
}

const submitArgs = (): string[] => ['withdraw', 'submit', id, '--as', APPROVER.name];
const noBus = (): Record<string, string> => ({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(desk.dir, 'no-such-bus')}` });

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '5000', trx: '100' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
  const requested = json<{ withdrawal: WithdrawalView }>(
    expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '12', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
  );
  id = requested.withdrawal.id;
  expectOk(await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], as(APPROVER)));
}, 120_000);

afterAll(async () => {
  for (const service of otherServices) {
    const vault = new KeychainVault({ service });
    for (const name of ['key', `audit-head/${firstRowHash().slice(0, 32)}`]) await vault.removeDeskEntry(name).catch(() => false);
  }
  await desk?.close();
});

describe('anchors that cannot be side-stepped', () => {
  it('refuses to submit under another keychain service name (no anchor there), saying why and what to do', async () => {
    const run = await desk.cli(submitArgs(), { env: { TREASURY_DESK_KEYCHAIN_SERVICE: otherService(), TREASURY_DESK_PASSPHRASE: APPROVER.passphrase } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/holds no anchor for its audit log \(\d+ rows\) in the OS keychain \(TREASURY_DESK_KEYCHAIN_SERVICE names its service\).*nothing is sent.*audit anchor --move-to file --as ADMIN/);
    expect(await state()).toBe('approved');
    expect(sandboxOrders()).toBe(0);
  });

  it('refuses to submit with a desk key the chain never enrolled, even with the anchor copied', async () => {
    const service = otherService();
    const anchorName = `audit-head/${firstRowHash().slice(0, 32)}`;
    const anchor = await desk.vault.readDeskEntry(anchorName);
    expect(anchor).not.toBeNull();
    await new KeychainVault({ service }).writeDeskEntry(anchorName, anchor as string);
    const run = await desk.cli(submitArgs(), { env: { TREASURY_DESK_KEYCHAIN_SERVICE: service, TREASURY_DESK_PASSPHRASE: APPROVER.passphrase } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/desk key \S+ \(in the OS keychain.*\) is not one its audit log enrolled .*nothing is sent/);
    expect(await state()).toBe('approved');
    expect(sandboxOrders()).toBe(0);
  });

  it('a desk kept in the keychain refuses to start without D-Bus, even with a desk-secrets file beside its database', async () => {
    const file = `${desk.dbPath}.desk-secrets`;
    writeFileSync(file, JSON.stringify({ key: exportPrivateKey(generateSigningKey().privateKey).toString('base64') }), { mode: 0o600 });
    try {
      const run = await spawnCli(['--db', desk.dbPath, '--credentials', desk.sandbox.credentialsPath, 'audit', 'verify'], processEnv({ ...desk.env, ...noBus() }));
      expect(expectFailure(run, 1)).toMatch(/keeps its desk key and audit anchor in the OS keychain, which does not answer here .*does not switch to a file by itself.*audit anchor --move-to file --as ADMIN/);
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);

  it('moves to the file and back only when an admin signs it, and keeps using the file while the keychain answers', async () => {
    const anchorName = `audit-head/${firstRowHash().slice(0, 32)}`;
    const file = `${desk.dbPath}.desk-secrets`;
    // The webhooks module keeps its sealing key and each endpoint's secret beside the desk key: the move carries them too.
    const added = expectOk(await desk.cli(['webhooks', 'add', 'https://hooks.example/moved', '--events', 'order.final', '--as', ADMIN.name], as(ADMIN))).stdout;
    const endpoint = /^endpoint (\d+):/.exec(added)?.[1];
    const deskId = JSON.parse(String(deskSql("SELECT value_json FROM settings WHERE key = 'desk.id'"))) as string;
    const webhookEntries = [`webhook-queue-seal/${deskId}`, `webhook-secret-${endpoint}/${deskId}`];
    const before = await Promise.all(webhookEntries.map((name) => desk.vault.readDeskEntry(name)));
    expect(before.every((value) => value !== null)).toBe(true);
    expect(expectOk(await desk.cli(['audit', 'anchor', '--move-to', 'file', '--as', ADMIN.name], as(ADMIN))).stdout).toMatch(/moved from the OS keychain to the file beside the database/);
    expect(await desk.vault.readDeskEntry('key')).toBeNull();
    expect(await desk.vault.readDeskEntry(anchorName)).toBeNull();
    for (const name of webhookEntries) expect(await desk.vault.readDeskEntry(name)).toBeNull();
    const inFile = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(inFile)).toEqual(expect.arrayContaining(['key', anchorName, ...webhookEntries]));
    expect(webhookEntries.map((name) => inFile[name])).toEqual(before);
    // The keychain still answers: the desk keeps its file (same key, anchored), so the chain verifies and it may send.
    expect(expectOk(await desk.cli(['audit', 'verify'])).stdout).toMatch(/intact.*\n[\s\S]*\nanchored: /);
    expect(expectOk(await desk.cli(['audit', 'anchor', '--move-to', 'keychain', '--as', ADMIN.name], as(ADMIN))).stdout).toMatch(/to the OS keychain/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
    expect(await desk.vault.readDeskEntry(anchorName)).not.toBeNull();
    expect(await Promise.all(webhookEntries.map((name) => desk.vault.readDeskEntry(name)))).toEqual(before);
    expect(deskSql("SELECT count(*) FROM audit_log WHERE action = 'audit/anchorMoved' AND operator = 'alice'")).toBe(2);
    // Everything still holds: the approved request goes, once.
    expectOk(await desk.cli(submitArgs(), as(APPROVER)));
    expect(await state()).not.toBe('approved');
    expect(sandboxOrders()).toBe(1);
  });

  it('a desk set up headless keeps its file when a Secret Service appears: no new identity in the keychain', async () => {
    const service = otherService();
    const headless = join(desk.dir, 'headless.sqlite');
    expectOk(await spawnCli(['--db', headless, '--credentials', desk.sandbox.credentialsPath, 'currencies'], processEnv({ TREASURY_DESK_KEYCHAIN_SERVICE: service, ...noBus() })));
    expect(existsSync(`${headless}.desk-secrets`)).toBe(true);
    const key = (JSON.parse(readFileSync(`${headless}.desk-secrets`, 'utf8')) as { key: string }).key;
    // The keychain answers now, and no --credentials is given: the desk still uses its file.
    expectOk(await spawnCli(['--db', headless, 'audit', 'head'], processEnv({ TREASURY_DESK_KEYCHAIN_SERVICE: service })));
    expect(await new KeychainVault({ service }).readDeskEntry('key')).toBeNull();
    expect((JSON.parse(readFileSync(`${headless}.desk-secrets`, 'utf8')) as { key: string }).key).toBe(key);
  }, 60_000);
});
