// `treasury-desk` as real processes where only a process shows it: --credentials FILE with no keychain at all (the
// session bus points at a dead socket), long-running commands stopped by SIGTERM / SIGINT, and a reader closing
// stdout early (EPIPE) ending the command quietly.
import { chmodSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BalanceView, ProfileSummary, SelfcheckReport } from '../../../electron/contract';
import { DEMO_OPERATORS } from '../../../electron/contract';
import { SEAL_KDF } from '../../../electron/core/operators/sealed-key';
import { json, openCliDesk, processEnv, spawnCli, startCliProcess, type Captured, type CliDesk } from './support';

let desk: CliDesk;
/** A desk database used only with --credentials, and the environment with a dead session bus. */
let headlessDb: string;
let noKeychain: NodeJS.ProcessEnv;

beforeAll(async () => {
  desk = await openCliDesk();
  headlessDb = join(desk.dir, 'headless.sqlite');
  noKeychain = processEnv({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(desk.dir, 'no-such-bus')}`, TREASURY_DESK_KEYCHAIN_SERVICE: desk.service });
});
afterAll(async () => desk?.close());

function headless(args: readonly string[], credentials = desk.sandbox.credentialsPath): Promise<Captured> {
  return spawnCli(['--db', headlessDb, '--credentials', credentials, ...args], noKeychain);
}

function oneErrorLine(run: Captured, code: number): string {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stderr).toMatch(/^treasury-desk: [^\n]+\n$/);
  return run.stderr.slice(0, -1);
}

/** Starts a long-running command and resolves once its stdout contains `ready`. */
async function startUntil(args: readonly string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const child = await startCliProcess(args, env);
  let stdout = '';
  let stderr = '';
  const closed = new Promise<Captured>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  const started = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = ready.exec(stdout);
      if (match) resolve(match);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    void closed.then((run) => reject(new Error(`exited ${run.code} before it was ready: ${run.stderr}`)));
  });
  return { child, started, closed };
}

describe('--credentials FILE: headless, without the keychain', () => {
  it('selfcheck, sync and balances work with the session bus dead', async () => {
    expect(json<SelfcheckReport>(await headless(['selfcheck', '--json'])).ok).toBe(true);
    const sync = await headless(['sync']);
    expect(sync).toMatchObject({ code: 0, stderr: '' });
    expect(sync.stdout).toMatch(/^synced 13 currencies/);
    const balances = json<BalanceView[]>(await headless(['balances', '--json']));
    expect(balances).toHaveLength(13);
    const profiles = json<ProfileSummary[]>(await headless(['profile', 'list', '--json']));
    expect(profiles).toEqual([expect.objectContaining({ name: 'default', credentialSource: 'file', active: true })]);
    expect(JSON.stringify(profiles)).not.toContain(desk.sandbox.credentials.secret);
  }, 60_000);

  it('the keychain commands fail with one line, exit 1, when there is no keychain', async () => {
    const run = await spawnCli(['--db', join(desk.dir, 'keychain.sqlite'), 'profile', 'import', desk.sandbox.credentialsPath], noKeychain);
    expect(oneErrorLine(run, 1)).toMatch(/^treasury-desk: keychainUnavailable: the OS keychain is not available/);
    expect(run.stdout).toBe('');
  });

  it('warns on stderr about a credentials file others can read, and refuses a missing one as bad input', async () => {
    const loose = join(desk.dir, 'loose-credentials.json');
    copyFileSync(desk.sandbox.credentialsPath, loose);
    chmodSync(loose, 0o644);
    const run = await headless(['currencies', '--json'], loose);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^treasury-desk: warning: [^\n]*loose-credentials\.json can be accessed by group or other users \(mode 0644\): run `chmod 600 [^\n]*\n$/);
    expect(json<unknown[]>(run)).toHaveLength(13);
    const missing = await headless(['balances'], join(desk.dir, 'missing.json'));
    expect(oneErrorLine(missing, 2)).toMatch(/^treasury-desk: invalidInput: .*missing\.json/);
  });

  it('ends quietly with exit 0 when the reader closes stdout early (EPIPE)', async () => {
    const child = await startCliProcess(['--db', headlessDb, '--credentials', desk.sandbox.credentialsPath, 'currencies'], noKeychain);
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('long-running commands stop cleanly on a signal', () => {
  it('callbacks listen prints its URL, runs until SIGTERM, then stops the listener', async () => {
    const listening = await startUntil(['--db', headlessDb, '--credentials', desk.sandbox.credentialsPath, 'callbacks', 'listen', '--port', '0'], noKeychain, /listening for callbacks at (\S+)\n/);
    const url = (await listening.started)[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callbacks$/);
    expect((await fetch(url, { method: 'POST', body: 'not a callback' })).status).toBe(400);
    listening.child.kill('SIGTERM');
    const run = await listening.closed;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopped \(SIGTERM\): 0 received, 1 refused\nrefused callbacks: 1 refusal by check: missingHeaders 1\n/);
    await expect(fetch(url)).rejects.toThrow();
  }, 30_000);

  it('demo starts the embedded sandbox, shows the demo operators, serves other commands, and stops on SIGINT', async () => {
    const dbPath = join(desk.dir, 'demo.sqlite');
    const env = processEnv(desk.env);
    const demo = await startUntil(['--db', dbPath, 'demo'], env, /Press Ctrl\+C to stop\.\n/);
    await demo.started;
    const balances = await spawnCli(['--db', dbPath, 'balances', '--json'], env);
    expect(balances.code, balances.stderr).toBe(0);
    expect(json<BalanceView[]>(balances).some((balance) => balance.available !== '0')).toBe(true);
    demo.child.kill('SIGINT');
    const run = await demo.closed;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^demo desk running: profile demo, sandbox at http:\/\/127\.0\.0\.1:\d+/);
    for (const operator of DEMO_OPERATORS) expect(run.stdout).toMatch(new RegExp(`^${operator.name}\\s+${operator.role}\\s+${operator.passphrase}$`, 'm'));
    expect(run.stdout).toMatch(/demo stopped \(SIGINT\)\n$/);
    // The real CLI seals its operators' keys at the production cost, whatever the test processes use (fast-seals.ts).
    const db = new Database(dbPath, { readonly: true });
    try {
      const seals = db.prepare('SELECT sealed_key_json FROM operator_keys').pluck().all() as string[];
      expect(seals.length).toBeGreaterThanOrEqual(DEMO_OPERATORS.length);
      for (const seal of seals) expect((JSON.parse(seal) as { kdf: unknown }).kdf).toMatchObject({ name: 'scrypt', N: SEAL_KDF.N, r: 8, p: 1 });
    } finally {
      db.close();
    }
    // The demo's first start founds its roster and furnishes the desk (addresses, labels, three withdrawals approved and
    // sent: core/desk/demo-desk.ts), some twenty operator unseals at the production seal cost, 0.3 s each on a free core.
  }, 240_000);
});
