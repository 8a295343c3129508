// Shared setup for CLI integration tests: a real sandbox on port 0, a temporary desk database, a per-test keychain
// service name (TREASURY_DESK_KEYCHAIN_SERVICE) on the private Secret Service of scripts/with-keyring.sh, and two
// ways to run `treasury-desk`: in process (runCli with an injected io) and as a real process (the CLI bundled once).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { encodeTronAddress } from '../../../electron/chains';
import type { InvitationView } from '../../../electron/contract';
import { KeychainVault } from '../../../electron/core/secrets';
import { startSandbox, type SandboxHandle } from '../../../electron/sandbox';
import { processEnv, runInProcess, spawnCli, type Captured, type RunOptions } from '../../support/cli';
import { admin } from '../../support/raw-merchant';

export { processEnv, spawnCli, startCliProcess, type Captured, type RunOptions } from '../../support/cli';

/** The founding admins: two independent parties, so approvals and roster changes can give four-eyes. */
export const ADMIN = { name: 'alice', role: 'admin', passphrase: 'alice passphrase 1' } as const;
export const SECOND_ADMIN = { name: 'frank', role: 'admin', passphrase: 'frank passphrase 66' } as const;
/** Invited by alice and confirmed by frank: each their own party. */
export const APPROVER = { name: 'bob', role: 'approver', passphrase: 'bob passphrase 22' } as const;
export const INITIATOR = { name: 'carol', role: 'initiator', passphrase: 'carol passphrase 3' } as const;
export const VIEWER = { name: 'dave', role: 'viewer', passphrase: 'dave passphrase 44' } as const;

export interface Operator {
  readonly name: string;
  readonly role: string;
  readonly passphrase: string;
}

/** The run options of an operator acting with --as (the passphrase from TREASURY_DESK_PASSPHRASE). */
export function as(operator: { readonly passphrase: string }): RunOptions {
  return { env: { TREASURY_DESK_PASSPHRASE: operator.passphrase } };
}

export interface CliDesk {
  readonly dir: string;
  readonly dbPath: string;
  readonly sandbox: SandboxHandle;
  /** The keychain service name this desk's CLI runs use. */
  readonly service: string;
  readonly vault: KeychainVault;
  /** The environment every run gets (keychain service), without passphrases. */
  readonly env: Readonly<Record<string, string>>;
  /** Runs `treasury-desk --db DB ARGS...` in process. */
  cli(args: readonly string[], options?: RunOptions): Promise<Captured & { readonly prompts: readonly string[] }>;
  /** Runs `treasury-desk --db DB ARGS...` as a real process. */
  spawn(args: readonly string[], env?: Readonly<Record<string, string | undefined>>): Promise<Captured>;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  close(): Promise<void>;
}

export function requireKeyring(): void {
  if (!process.env['TREASURY_KEYRING_HARNESS']) {
    throw new Error('CLI tests use the real Secret Service: run them under `bash scripts/with-keyring.sh npx vitest run ...`');
  }
}

export async function openCliDesk(): Promise<CliDesk> {
  requireKeyring();
  const dir = mkdtempSync(join(tmpdir(), 'td-cli-'));
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'sandbox') });
  const service = `treasury-desk-test-${randomBytes(6).toString('hex')}`;
  const vault = new KeychainVault({ service });
  const dbPath = join(dir, 'desk.sqlite');
  const env = { TREASURY_DESK_KEYCHAIN_SERVICE: service };
  return {
    dir,
    dbPath,
    sandbox,
    service,
    vault,
    env,
    cli: (args, options = {}) => runInProcess(['--db', dbPath, ...args], { ...options, env: { ...env, ...options.env } }),
    spawn: (args, extra = {}) => spawnCli(['--db', dbPath, ...args], processEnv({ ...env, ...extra })),
    admin: (method, path, body) => admin(sandbox.adminUrl, method, path, body),
    async close() {
      await sandbox.close();
      for (const profile of await vault.listProfiles()) await vault.remove(profile);
      for (const profile of ['main', 'fresh', 'default', 'second']) await vault.removePendingPrivateKey(profile).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Imports the sandbox's credentials as profile `main`, founds its desk with alice and frank, and enrols bob, carol and
 * dave the way a team does: alice invites, the operator accepts with the code and their own passphrase, frank confirms.
 */
export async function setUpDesk(desk: CliDesk): Promise<void> {
  expectOk(await desk.cli(['profile', 'import', desk.sandbox.credentialsPath, '--name', 'main']));
  expectOk(
    await desk.cli(['operator', 'found', '--admin', ADMIN.name, '--admin', SECOND_ADMIN.name], {
      env: { TREASURY_DESK_NEW_PASSPHRASE: ADMIN.passphrase, TREASURY_DESK_NEW_PASSPHRASE_2: SECOND_ADMIN.passphrase },
    }),
  );
  for (const operator of [APPROVER, INITIATOR, VIEWER]) await enrol(desk, operator);
}

/** Invites `operator` (as `by`), has them accept with the code, and has `confirmBy` confirm; answers the proposal id. */
export async function enrol(desk: CliDesk, operator: Operator, by: Operator = ADMIN, confirmBy: Operator | null = SECOND_ADMIN, profile: readonly string[] = []): Promise<string> {
  const invited = json<InvitationView>(expectOk(await desk.cli([...profile, 'operator', 'invite', operator.name, '--role', operator.role, '--as', by.name, '--json'], as(by))));
  expectOk(
    await desk.cli([...profile, 'operator', 'accept', operator.name], {
      env: { TREASURY_DESK_INVITATION_CODE: invited.code, TREASURY_DESK_NEW_PASSPHRASE: operator.passphrase },
    }),
  );
  if (confirmBy !== null) expectOk(await desk.cli([...profile, 'operator', 'confirm', invited.proposal, '--as', confirmBy.name], as(confirmBy)));
  return invited.proposal;
}

/** Exit 0 and nothing on stderr. */
export function expectOk(run: Captured): Captured {
  if (run.code !== 0 || run.stderr !== '') expect.fail(`expected success, got exit ${run.code}: ${run.stderr}`);
  return run;
}

/** The exit code, nothing on stdout, exactly one line on stderr prefixed `treasury-desk: `. Returns that line. */
export function expectFailure(run: Captured, code: number): string {
  expect(run.stderr).toMatch(/^treasury-desk: [^\n]+\n$/);
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe('');
  return run.stderr.slice(0, -1);
}

/**
 * A decision refused after the request was shown: stdout is only the line naming the request and its fingerprint
 * (printed before the passphrase is asked; an approval then shows everything the approver signs, one `label  value`
 * line per item), stderr one `treasury-desk: ` line. Returns that line.
 */
export function expectDecisionFailure(run: Captured, code: number): string {
  expect(run.stderr).toMatch(/^treasury-desk: [^\n]+\n$/);
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toMatch(/^(?:Approving|Rejecting|Cancelling|Submitting) request \d+: [^\n]+; fingerprint [A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}\n/);
  const review = run.stdout.split('\n').slice(1, -1);
  if (run.stdout.startsWith('Approving')) expect(review.filter((line) => /^[! ] Request fingerprint +[A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}$/.test(line))).toHaveLength(1);
  else expect(review).toEqual([]);
  return run.stderr.slice(0, -1);
}

/** stdout parsed as JSON. */
export function json<T = Record<string, unknown>>(run: Captured): T {
  return JSON.parse(run.stdout) as T;
}

/** A fresh valid TRON address (base58check of 0x41 + 20 random bytes). */
export function tronAddress(): string {
  return encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)]));
}
