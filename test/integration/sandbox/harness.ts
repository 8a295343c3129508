// Shared setup of the sandbox integration suite: a sandbox on port 0 in a temporary folder, a raw signing client
// for its primary merchant, admin helpers, and the ledger invariant assertion run after every scenario.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startSandbox, type SandboxHandle, type StartSandboxOptions } from '../../../electron/sandbox';
import { admin, expectData, RawMerchant, type RawCredentials } from '../../support/raw-merchant';

export function tempDir(prefix = 'sandbox-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestSandbox {
  readonly sandbox: SandboxHandle;
  readonly dir: string;
  readonly merchant: RawMerchant;
  /** Admin call against this sandbox. */
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** A further merchant (admin POST /sandbox/merchants) with a client holding a token. */
  newMerchant(settings?: Record<string, unknown>): Promise<RawMerchant>;
  /** Asserts the ledger invariant for every merchant. */
  expectInvariant(): void;
  close(): Promise<void>;
}

export async function openSandbox(options: Omit<StartSandboxOptions, 'port' | 'dataDir'> & { dir?: string } = {}): Promise<TestSandbox> {
  const dir = options.dir ?? tempDir();
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: dir, ...options });
  const merchant = new RawMerchant(sandbox.credentials);
  const call = <T,>(method: string, path: string, body?: unknown) => admin<T>(sandbox.adminUrl, method, path, body);
  return {
    sandbox,
    dir,
    merchant,
    admin: call,
    async newMerchant(settings = {}) {
      const created = await call<RawCredentials>('POST', '/merchants', settings);
      expect(created.status).toBe(201);
      const client = new RawMerchant(created.json);
      const token = await client.getToken();
      expectData(token);
      return client;
    },
    expectInvariant() {
      const report = sandbox.checkInvariant();
      expect(report.violations).toEqual([]);
      expect(report.ok).toBe(true);
    },
    async close() {
      await sandbox.close();
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
