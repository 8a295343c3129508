// Bench support: a first workstation's desk on a sandbox of its own, as a real merchant's ("main", two founding admins
// with passphrases made here), funded for long runs. Other workstations of a team bench import the same credentials
// file; they could not with demo mode's desk, whose profile name "demo" is kept for demo mode (core/profiles.ts).
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../electron/sandbox';
import { admin } from '../support/raw-merchant';
import type { Call, Operator } from '../support/team-join';

/** The merchant profile the bench desks use. */
export const BENCH_PROFILE = 'main';

export interface SandboxDesk {
  readonly sandbox: SandboxHandle;
  /** The two founding admins: the first requests and submits, the second approves (four eyes). */
  readonly initiator: Operator;
  readonly approver: Operator;
}

/** Starts a sandbox under `dataDir`, imports its credentials at `first` as BENCH_PROFILE and founds two admins there. */
export async function startSandboxDesk(first: Call, dataDir: string): Promise<SandboxDesk> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: join(dataDir, 'sandbox') });
  try {
    const funded = await admin(sandbox.adminUrl, 'PATCH', `/merchants/${sandbox.credentials.merchantId}`, {
      balances: { 'trx.usdt': '100000000', trx: '1000000', 'eth.usdt': '100000000', eth: '1000000' },
    });
    if (funded.status !== 200) throw new Error(`the sandbox refused the balances (${funded.status})`);
    const initiator = { operator: 'alice', passphrase: `alice ${sandbox.credentials.merchantId} bench` };
    const approver = { operator: 'bob', passphrase: `bob ${sandbox.credentials.merchantId} bench` };
    await first('profiles/importFile', { name: BENCH_PROFILE, path: sandbox.credentialsPath });
    await first('operators/found', { admins: [initiator, approver] });
    await first('sync/run', {});
    return { sandbox, initiator, approver };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
