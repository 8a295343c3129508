// Persistence and start-up: credentials.json (mode 0600), state kept across a clean restart and across SIGKILL right
// after an acknowledged createWithdrawOrder (commit before answering), refusal of non-loopback listen addresses,
// refusal of a database from a newer schema, and the invariant computed on a stopped data folder.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../../electron/protocol/profile';
import { parsePrivateKey, parsePublicKey } from '../../../electron/protocol/keys';
import { checkLedgerInvariant, RemoteListenRefusedError, startSandbox } from '../../../electron/sandbox';
import { cryptoRandom, newChainAddress } from '../../../electron/sandbox/chain-sim';
import { DATABASE_FILE } from '../../../electron/sandbox/store';
import { admin, expectData, RawMerchant, type RawCredentials } from '../../support/raw-merchant';
import { openSandbox, tempDir } from './harness';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('credentials.json and restart', () => {
  it('writes credentials.json with mode 0600 on first start and keeps every piece of state across a restart', async () => {
    const dir = tempDir();
    try {
      const first = await openSandbox({ dir });
      const path = join(dir, 'credentials.json');
      expect(first.sandbox.credentialsPath).toBe(path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const written = JSON.parse(readFileSync(path, 'utf8')) as RawCredentials;
      expect(Object.keys(written).sort()).toEqual(['baseUrl', 'merchantId', 'merchantPrivateKey', 'platformPublicKey', 'secret']);
      expect(written).toEqual(first.sandbox.credentials);
      expect(written.baseUrl).toBe(first.sandbox.baseUrl);
      expect(written.platformPublicKey).toContain('-----BEGIN PUBLIC KEY-----');
      expect(written.merchantPrivateKey).toContain('-----BEGIN PRIVATE KEY-----');
      parsePublicKey(written.platformPublicKey);
      parsePrivateKey(written.merchantPrivateKey);

      const client = first.merchant;
      expectData(await client.getToken());
      await first.admin('PATCH', `/merchants/${written.merchantId}`, { balances: { 'ton.usdt': '100' }, withdrawTypes: ['normal'] });
      const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'keep', addressType: 'ton' }));
      const deposit = await first.admin<{ deposit: unknown }>('POST', '/transfers', { toAddress: address, currency: 'ton.usdt', amount: '10' });
      const order = expectData(await client.call(PATHS.createWithdrawOrder, { userOrder: 'keep-w', currency: 'ton.usdt', amount: '20', toAddress: newChainAddress('ton', cryptoRandom) }));
      const replayable = await client.call(PATHS.selfcheck, {});
      expectData(replayable);
      const infoBefore = expectData(await client.call(PATHS.merchantInfo, {}));
      await first.close();

      const second = await openSandbox({ dir });
      try {
        expect({ ...second.sandbox.credentials, baseUrl: '' }).toEqual({ ...written, baseUrl: '' });
        const after = new RawMerchant(second.sandbox.credentials);
        after.token = client.token; // the token issued before the restart is still valid
        expect(expectData(await after.call(PATHS.merchantInfo, {}))).toEqual(infoBefore);
        expect(expectData(await after.call(PATHS.checkWithdrawOrder, { userOrder: 'keep-w' }))).toEqual(order);
        expect(expectData<unknown[]>(await after.call(PATHS.getDeposits, {}))).toEqual([deposit.json.deposit]);
        expect(expectData(await after.call(PATHS.createAddress, { userOrder: 'keep', addressType: 'ton' }))).toMatchObject({ address });
        // The nonce memory survives too: replaying the earlier request is refused.
        const replay = await after.send(PATHS.selfcheck, replayable.sent);
        expect(replay.envelope?.message).toBe('signatureFailed');
        expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
        second.expectInvariant();
      } finally {
        await second.close();
      }
      expect(checkLedgerInvariant(dir).ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Starts `treasury-desk sandbox` as a child process and resolves with its base URL once it listens. */
function startChild(dir: string): Promise<{ child: ChildProcessWithoutNullStreams; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/index.ts', 'sandbox', '--port', '0', '--data', dir], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox child did not start: ${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Sandbox listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1] });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox child exited with ${code}: ${output}`));
    });
  });
}

describe('kill -9', () => {
  it('loses nothing acknowledged: an order answered just before SIGKILL exists after the restart', async () => {
    const dir = tempDir();
    try {
      const { child, baseUrl } = await startChild(dir);
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      try {
        const credentials = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as RawCredentials;
        expect(credentials.baseUrl).toBe(baseUrl);
        const adminUrl = `${baseUrl}/sandbox`;
        expect((await admin(adminUrl, 'PATCH', `/merchants/${credentials.merchantId}`, { balances: { bnb: '2' } })).status).toBe(200);
        const client = new RawMerchant(credentials);
        expectData(await client.getToken());
        const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'k-addr', addressType: 'eth_bnb' }));
        const deposit = await admin<{ deposit: { apiOrder: string } }>(adminUrl, 'POST', '/transfers', { toAddress: address, currency: 'bnb', amount: '1' });
        const order = expectData(
          await client.call(PATHS.createWithdrawOrder, { userOrder: 'k-1', currency: 'bnb', amount: '0.5', toAddress: newChainAddress('bnb', cryptoRandom) }),
        );
        child.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');

        const restarted = await startSandbox({ port: 0, dataDir: dir });
        try {
          const after = new RawMerchant(restarted.credentials);
          after.token = client.token;
          expect(expectData(await after.call(PATHS.checkWithdrawOrder, { userOrder: 'k-1' }))).toEqual(order);
          const deposits = expectData<Array<{ apiOrder: string }>>(await after.call(PATHS.getDeposits, {}));
          expect(deposits.map((entry) => entry.apiOrder)).toEqual([deposit.json.deposit.apiOrder]);
          const info = expectData<{ balances: Array<{ currency: string; available: string; frozen: string }> }>(await after.call(PATHS.merchantInfo, {}));
          // 2 + (1 - 0.003 deposit fee) - (0.5 + 0.0003 withdrawal fee) available; 0.5003 frozen.
          expect(info.balances.find((entry) => entry.currency === 'bnb')).toEqual({ currency: 'bnb', available: '2.4967', frozen: '0.5003' });
          const report = restarted.checkInvariant();
          expect(report.violations).toEqual([]);
        } finally {
          await restarted.close();
        }
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('listen address', () => {
  it('refuses non-loopback addresses unless allowRemote, saying why', async () => {
    const dir = tempDir();
    try {
      for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
        const attempt = startSandbox({ host, port: 0, dataDir: dir });
        await expect(attempt).rejects.toBeInstanceOf(RemoteListenRefusedError);
        await expect(startSandbox({ host, port: 0, dataDir: dir })).rejects.toThrow(/not a loopback address.*--allow-remote/);
      }
      const local = await startSandbox({ host: 'localhost', port: 0, dataDir: dir });
      try {
        expect(local.baseUrl).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/);
      } finally {
        await local.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes `treasury-desk sandbox --host 0.0.0.0` exit 2 with the reason on one line', async () => {
    const dir = tempDir();
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/index.ts', 'sandbox', '--host', '0.0.0.0', '--port', '0', '--data', dir], {
        cwd: REPO_ROOT,
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain('refusing to listen on 0.0.0.0');
      expect(stderr).toContain('--allow-remote');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('schema version', () => {
  it('refuses a database written by a newer sandbox', async () => {
    const dir = tempDir();
    try {
      const db = new Database(join(dir, DATABASE_FILE));
      db.pragma('user_version = 9990');
      db.close();
      await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(/newer than this program/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
