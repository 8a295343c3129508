// The sandbox's public face: startSandbox() opens (or creates) the state in a data folder, serves the merchant,
// public and admin interfaces on one loopback port, and writes credentials.json (mode 0600) for the primary merchant.
// It refuses a non-loopback listen address unless allowRemote is set.
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIP, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { seedDemo } from './demo-seed';
import { DEMO_LIVE_DEPOSITS, LiveDeposits, type LiveDepositTiming } from './demo-live';
import { isLoopbackAddress } from './http';
import { checkLedgerInvariant as checkInvariantOf, type InvariantReport } from './ledger';
import { credentialsOf, type SandboxCredentials } from './merchants';
import { createSandboxServer } from './server';
import { SandboxService } from './service';
import { openDatabase } from './store';

export type { InvariantReport, InvariantViolation } from './ledger';
export type { SandboxCredentials } from './merchants';
export { DEMO_SEED } from './demo-seed';
export { DEMO_LIVE_DEPOSITS, type LiveDepositTiming } from './demo-live';

export const DEFAULT_SANDBOX_HOST = '127.0.0.1';
export const DEFAULT_SANDBOX_PORT = 8787;
export const DEFAULT_SANDBOX_DIR = '.sandbox';
export const CREDENTIALS_FILE = 'credentials.json';

export interface StartSandboxOptions {
  /** Listen address; loopback unless allowRemote. Default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 picks a free one (tests). Default 8787. */
  readonly port?: number;
  /** State folder. Default `.sandbox/` in the working folder. */
  readonly dataDir?: string;
  /** Advance normal withdrawals on timers to success. */
  readonly auto?: boolean;
  /** Divides every timer (auto-advance, callback retries); default 1 (real time). */
  readonly timeScale?: number;
  /** Seed for demo data on first start in a fresh folder (`demo`); ignored when the folder already has state. */
  readonly seed?: string;
  /** Allow a non-loopback listen address (the admin interface still answers loopback clients only). */
  readonly allowRemote?: boolean;
  /** Live activity (demo mode): deposits to the primary merchant's addresses on seeded timers while it runs (demo-live.ts). */
  readonly liveDeposits?: LiveDepositTiming;
}

export interface SandboxHandle {
  readonly baseUrl: string;
  readonly adminUrl: string;
  /** The primary merchant's credentials (the content of credentials.json). */
  readonly credentials: SandboxCredentials;
  readonly credentialsPath: string;
  readonly dataDir: string;
  /** The ledger invariant for one merchant or all (see ledger.ts). */
  checkInvariant(merchantId?: string): InvariantReport;
  close(): Promise<void>;
}

/** Thrown before anything listens when the address is not loopback and allowRemote is not set. */
export class RemoteListenRefusedError extends Error {
  override readonly name = 'RemoteListenRefusedError';
}

async function isLoopbackHost(host: string): Promise<boolean> {
  if (isIP(host) !== 0) return isLoopbackAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((entry) => isLoopbackAddress(entry.address));
  } catch {
    return false;
  }
}

/** Writes credentials.json atomically with mode 0600 (it holds a secret and a private key). */
function writeCredentials(path: string, credentials: SandboxCredentials): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? DEFAULT_SANDBOX_HOST;
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new RangeError('timeScale must be a positive number');
  if (!options.allowRemote && !(await isLoopbackHost(host))) {
    throw new RemoteListenRefusedError(
      `refusing to listen on ${host}: it is not a loopback address, so other machines could reach the sandbox and use its test credentials. ` +
        'Listen on 127.0.0.1, or pass --allow-remote if you really mean it.',
    );
  }
  const dataDir = resolve(options.dataDir ?? DEFAULT_SANDBOX_DIR);
  const service = await SandboxService.open({
    dataDir,
    auto: options.auto ?? false,
    timeScale,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  let baseUrl = '';
  const server = createSandboxServer(service, () => baseUrl);
  try {
    if (service.isEmpty()) {
      if (options.seed !== undefined) await seedDemo(service, options.seed);
      else await service.createMerchant({ merchantName: 'Sandbox Merchant' }, service.random, true);
    }
    await new Promise<void>((resolveListen, rejectListen) => {
      server.server.once('error', rejectListen);
      server.server.listen(options.port ?? DEFAULT_SANDBOX_PORT, host, () => {
        server.server.off('error', rejectListen);
        resolveListen();
      });
    });
  } catch (error) {
    await server.close().catch(() => undefined);
    await service.close();
    throw error;
  }
  const address = server.server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' || isIP(address.address) === 6 ? `[${address.address}]` : address.address;
  baseUrl = `http://${urlHost}:${address.port}`;
  await service.commits.settled();
  const credentials = credentialsOf(service.db, service.primaryMerchantId, baseUrl);
  const credentialsPath = join(dataDir, CREDENTIALS_FILE);
  writeCredentials(credentialsPath, credentials);
  service.start();
  const liveDeposits =
    options.liveDeposits === undefined ? undefined : new LiveDeposits(service, service.primaryMerchantId, options.liveDeposits, options.seed ?? 'live');
  liveDeposits?.start();

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    adminUrl: `${baseUrl}/sandbox`,
    credentials,
    credentialsPath,
    dataDir,
    checkInvariant: (merchantId) => checkInvariantOf(service.db, merchantId),
    close: () => {
      closing ??= (async () => {
        liveDeposits?.close();
        await server.close();
        await service.close();
      })();
      return closing;
    },
  };
}

/** The ledger invariant of a sandbox data folder that is not running (opened read-only). */
export function checkLedgerInvariant(dataDir: string, merchantId?: string): InvariantReport {
  const db = openDatabase(resolve(dataDir), { readonly: true });
  try {
    return checkInvariantOf(db, merchantId);
  } finally {
    db.close();
  }
}

/**
 * Demo mode's sandbox: loopback, demo data on first start, normal withdrawals advancing on their own, and a deposit
 * arriving every so often while it runs (`liveDeposits`: demo-live.ts's default; tests pass short gaps). The faces
 * (desktop main, CLI, browser harness) hand this to the engine; core never imports the sandbox.
 */
export function demoSandboxStarter(dataDir: string, liveDeposits: LiveDepositTiming = DEMO_LIVE_DEPOSITS): () => Promise<SandboxHandle> {
  return () => startSandbox({ host: '127.0.0.1', port: 0, dataDir, auto: true, seed: 'demo', liveDeposits });
}
