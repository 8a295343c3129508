// Shared setup for engine integration tests: a real sandbox on port 0, a real SQLite file, the real keychain
// (a private Secret Service from scripts/with-keyring.sh) under a per-test service name, and helpers to call the
// contract and unwrap its Result.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ContractEvent, DeskNotification, MethodName, ResponseOf, Result } from '../../../electron/contract';
import { callMethod } from '../../../electron/contract';
import { encodeTronAddress } from '../../../electron/chains';
import { createEngine, type Engine, type EngineOptions } from '../../../electron/core/engine';
import { KeychainVault } from '../../../electron/core/secrets';
import { startSandbox, type SandboxHandle, type StartSandboxOptions } from '../../../electron/sandbox';
import { admin } from '../../support/raw-merchant';

export function requireKeyring(): void {
  if (!process.env['TREASURY_KEYRING_HARNESS']) {
    throw new Error('engine tests use the real Secret Service: run them under `bash scripts/with-keyring.sh npx vitest run ...`');
  }
}

export interface Desk {
  readonly engine: Engine;
  readonly sandbox: SandboxHandle;
  readonly dir: string;
  readonly dbPath: string;
  readonly vault: KeychainVault;
  call<M extends MethodName>(method: M, request: unknown): Promise<Result<ResponseOf<M>>>;
  /** Calls and expects success, returning the value. */
  value<M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>>;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** A new engine on the same database and keychain (a restart). */
  reopen(options?: Partial<EngineOptions>): Promise<Engine>;
  close(): Promise<void>;
}

export const ADMIN = { operator: 'alice', passphrase: 'alice passphrase 1' };
/** The second founding admin: independent of alice, so operators both enrol are nobody's party but their own. */
export const SECOND_ADMIN = { operator: 'frank', passphrase: 'frank passphrase 6' };
export const APPROVER = { operator: 'bob', passphrase: 'bob passphrase 22' };
export const INITIATOR = { operator: 'carol', passphrase: 'carol passphrase 3' };
export const VIEWER = { operator: 'dave', passphrase: 'dave passphrase 44' };

export async function openDesk(options: { sandbox?: StartSandboxOptions; engine?: Partial<EngineOptions>; profile?: boolean } = {}): Promise<Desk> {
  requireKeyring();
  const dir = mkdtempSync(join(tmpdir(), 'td-engine-'));
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'sandbox'), ...options.sandbox });
  const vault = new KeychainVault({ service: `treasury-desk-test-${randomBytes(6).toString('hex')}` });
  const dbPath = join(dir, 'desk.sqlite');
  const engines: Engine[] = [];
  const open = async (extra: Partial<EngineOptions> = {}): Promise<Engine> => {
    const engine = await createEngine({ dbPath, vault, cryptoThreads: 2, ...options.engine, ...extra });
    engines.push(engine);
    return engine;
  };
  const engine = await open();
  const call = async <M extends MethodName>(method: M, request: unknown): Promise<Result<ResponseOf<M>>> => {
    return callMethod(engine.handlers, method, request);
  };
  const desk: Desk = {
    engine,
    sandbox,
    dir,
    dbPath,
    vault,
    call,
    async value(method, request) {
      const result = await call(method, request);
      if (!result.ok) expect.fail(`${method} failed: ${result.error.code}: ${result.error.message}`);
      return result.value;
    },
    admin: (method, path, body) => admin(sandbox.adminUrl, method, path, body),
    reopen: open,
    async close() {
      for (const opened of engines) await opened.close();
      await sandbox.close();
      for (const profile of await vault.listProfiles()) await vault.remove(profile);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (options.profile !== false) {
    await desk.value('profiles/importFile', { name: 'main', path: sandbox.credentialsPath });
    await seedRoster(desk);
  }
  return desk;
}

/**
 * Gives the ACTIVE profile the standard roster (operators belong to a profile): alice and frank found it, then bob
 * (approver), carol (initiator) and dave (viewer) are invited by alice, accept, and are confirmed by frank.
 */
export async function seedRoster(desk: Pick<Desk, 'value'>): Promise<void> {
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  for (const [acting, role] of [
    [APPROVER, 'approver'],
    [INITIATOR, 'initiator'],
    [VIEWER, 'viewer'],
  ] as const) {
    await enrol(desk, acting, role);
  }
}

/**
 * Enrols an operator the four-eyes way: `by` invites, the operator accepts with their own passphrase, `confirmer`
 * (independent of `by`) confirms the key. With `confirmer` null the invitation is accepted only (a one-admin desk).
 */
export async function enrol(
  desk: Pick<Desk, 'value'>,
  operator: { operator: string; passphrase: string },
  role: 'viewer' | 'initiator' | 'approver' | 'admin',
  by: { operator: string; passphrase: string } = ADMIN,
  confirmer: { operator: string; passphrase: string } | null = SECOND_ADMIN,
): Promise<void> {
  const invitation = await desk.value('operators/invite', { name: operator.operator, role, as: by });
  await desk.value('operators/accept', { name: operator.operator, code: invitation.code, passphrase: operator.passphrase });
  if (confirmer !== null && invitation.needsConfirmation) await desk.value('operators/confirm', { proposal: invitation.proposal, as: confirmer });
}

/** A fresh valid TRON address (base58check of 0x41 + 20 random bytes). */
export function tronAddress(): string {
  return encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)]));
}

/** A payout CSV of `count` trx.usdt lines (12, 13, ...) to fresh addresses, written in the desk's folder. */
export function payoutFile(desk: Pick<Desk, 'dir'>, name: string, count: number): string {
  const path = join(desk.dir, name);
  const lines = Array.from({ length: count }, (_, index) => `trx.usdt,${12 + index},${tronAddress()},line ${index + 1}`);
  writeFileSync(path, ['currency,amount,toAddress,memo', ...lines].join('\n') + '\n');
  return path;
}

/** The notices an engine raises, collected as they come, and a wait for the next ones. */
export function collectNotices(engine: Engine): {
  readonly raised: readonly DeskNotification[];
  /** The notices raised since `from`, once `count` arrived, with a moment for an unexpected late one. */
  after(from: number, count: number, timeoutMs?: number): Promise<DeskNotification[]>;
} {
  const raised: DeskNotification[] = [];
  engine.onEvent((event: ContractEvent) => {
    if (event.type === 'notification/raised') raised.push(event.notification);
  });
  return {
    raised,
    async after(from, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (raised.length - from < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} notices, got ${JSON.stringify(raised.slice(from), null, 2)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
      return raised.slice(from);
    },
  };
}
