// Callbacks (§10) against a local receiver: signed and encrypted envelopes with fresh timestamp, nonce and signature
// per attempt, the retry schedule (timeScale), the exact `success` acknowledgement, every status change after
// creation, the delivery log, and pending deliveries surviving a restart.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decryptJson } from '../../../electron/protocol/cipher';
import { parseEnvelope } from '../../../electron/protocol/envelope';
import { CALLBACK_RETRY_SCHEDULE_SECONDS, CALLBACK_TIMEOUT_MS, HEADER, PATHS } from '../../../electron/protocol/profile';
import { answerTimeoutMs } from '../../../electron/sandbox/callbacks';
import { signingInput, verifyText } from '../../../electron/protocol/signature';
import { cryptoRandom, newChainAddress } from '../../../electron/sandbox/chain-sim';
import { expectData, type RawMerchant } from '../../support/raw-merchant';
import { eventually, openSandbox, tempDir, type TestSandbox } from './harness';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** What to answer next: [status, body]. */
  answer: (index: number) => [number, string];
  close(): Promise<void>;
}

async function startReceiver(answer: (index: number) => [number, string]): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: { answer: (index: number) => [number, string] } = { answer };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const [status, body] = receiver.answer(received.length - 1);
      response.writeHead(status, { 'Content-Type': 'text/plain' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/treasury`,
    received,
    get answer() {
      return receiver.answer;
    },
    set answer(next) {
      receiver.answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Verifies a callback exactly as a merchant must (§10.1, §3.3) and returns its decrypted record. */
function openCallback(client: RawMerchant, delivery: Received): Record<string, unknown> {
  expect(delivery.headers['content-type']).toBe('application/json');
  expect(delivery.headers[HEADER.appId.toLowerCase()]).toBe(client.credentials.merchantId);
  const parsed = parseEnvelope(delivery.body);
  if (!parsed.ok) throw new Error(parsed.reason);
  expect(parsed.envelope.code).toBe(10000);
  expect(parsed.envelope.message).toBe('success');
  expect(delivery.body).not.toMatch(/[^\\]\//);
  const timestamp = String(delivery.headers[HEADER.timestamp.toLowerCase()]);
  const nonce = String(delivery.headers[HEADER.nonce.toLowerCase()]);
  const sign = String(delivery.headers[HEADER.sign.toLowerCase()]);
  expect(Math.abs(Number(timestamp) - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(5);
  expect(verifyText(signingInput(timestamp, nonce, parsed.envelope.data), sign, client.platformPublicKey)).toBe(true);
  return decryptJson(parsed.envelope.data, client.merchantPrivateKey) as Record<string, unknown>;
}

interface LogEntry {
  eventAt: number;
  kind: string;
  ref: string;
  state: string;
  attempts: number;
  record: Record<string, unknown>;
  deliveries: Array<{ attempt: number; outcome: string; httpStatus: number | null; detail: string; at: number }>;
}

async function log(t: TestSandbox, merchantId: string): Promise<LogEntry[]> {
  return (await t.admin<{ callbacks: LogEntry[] }>('GET', `/callbacks?merchantId=${merchantId}`)).json.callbacks;
}

describe('callback delivery with a failing, then succeeding receiver', () => {
  let t: TestSandbox;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await openSandbox({ timeScale: 1000 });
    receiver = await startReceiver((index) => (index === 0 ? [500, 'busy'] : [200, 'success']));
  });

  afterEach(() => t.expectInvariant());

  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('retries a deposit callback with a fresh timestamp, nonce and signature until acknowledged', async () => {
    const client = await t.newMerchant({ callbackUrl: receiver.url });
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'cb-1', addressType: 'solana' }));
    const sent = await t.admin<{ deposit: Record<string, unknown> }>('POST', '/transfers', { toAddress: address, currency: 'solana.usdt', amount: '12' });
    const entries = await eventually(async () => {
      const current = await log(t, client.credentials.merchantId);
      return current[0]?.state === 'delivered' ? current : undefined;
    }, 5000, 'the deposit callback to be delivered');
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    if (!first || !second) throw new Error('two deliveries expected');
    expect(openCallback(client, first)).toEqual(sent.json.deposit);
    expect(openCallback(client, second)).toEqual(sent.json.deposit);
    expect(second.headers['svc-nonce']).not.toBe(first.headers['svc-nonce']);
    expect(second.headers['svc-sign']).not.toBe(first.headers['svc-sign']);
    const entry = entries[0];
    // Attempt 2 is due 15 s (scaled: 15 ms) after the event, not after attempt 1.
    expect(second.at).toBeGreaterThanOrEqual((entry?.eventAt ?? 0) + (CALLBACK_RETRY_SCHEDULE_SECONDS[1] * 1000) / 1000 - 1);
    expect(entry).toMatchObject({ kind: 'deposit', ref: sent.json.deposit.apiOrder, state: 'delivered', attempts: 2 });
    expect(entry?.deliveries.map((delivery) => [delivery.attempt, delivery.outcome, delivery.httpStatus])).toEqual([
      [1, 'failed', 500],
      [2, 'delivered', 200],
    ]);
  });

  it('calls back every withdrawal status change after creation, the final one included', async () => {
    receiver.answer = () => [200, 'success'];
    const client = await t.newMerchant({ callbackUrl: receiver.url, balances: { 'solana.usdc': '100' } });
    const toAddress = newChainAddress('solana', cryptoRandom);
    expectData(await client.call(PATHS.createWithdrawOrder, { userOrder: 'cb-w', currency: 'solana.usdc', amount: '10', toAddress }));
    const path = ['pendingTransfer', 'pendingCallback', 'success'];
    for (const to of path) {
      expect((await t.admin('POST', `/withdrawals/${client.credentials.merchantId}/cb-w/advance`, { to })).status).toBe(200);
    }
    const entries = await eventually(async () => {
      const current = await log(t, client.credentials.merchantId);
      return current.length === path.length && current.every((entry) => entry.state === 'delivered') ? current : undefined;
    }, 5000, 'three withdrawal callbacks');
    expect(entries.map((entry) => entry.ref)).toEqual(path.map((status) => `cb-w:${status}`));
    const mine = receiver.received.filter((delivery) => delivery.headers['svc-app-id'] === client.credentials.merchantId);
    const statuses = mine.map((delivery) => openCallback(client, delivery)).map((record) => record.orderStatus);
    expect(statuses.sort()).toEqual([...path].sort());
    const final = expectData(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'cb-w' }));
    expect(entries[2]?.record).toEqual(final);
  });

  it('treats anything but HTTP 200 with body `success` as a failed delivery', async () => {
    const firstOfThisTest = receiver.received.length;
    receiver.answer = (index) => [200, index === firstOfThisTest ? 'ok' : 'success'];
    const client = await t.newMerchant({ callbackUrl: receiver.url });
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'ack', addressType: 'trx' }));
    await t.admin('POST', '/transfers', { toAddress: address, currency: 'trx', amount: '5' });
    const [entry] = await eventually(async () => {
      const current = await log(t, client.credentials.merchantId);
      return current[0]?.state === 'delivered' ? current : undefined;
    }, 5000, 'delivery after a wrong acknowledgement');
    expect(entry?.deliveries[0]).toMatchObject({ outcome: 'failed', httpStatus: 200 });
    expect(entry?.deliveries[0]?.detail).toContain('"ok"');
  });
});

describe('retry schedule (§10.3)', () => {
  it('makes 8 attempts at 0 s, 15 s, 1 min, 5 min, 15 min, 1 h, 3 h, 6 h (scaled), then gives up', async () => {
    const scale = 100_000;
    const t = await openSandbox({ timeScale: scale });
    const receiver = await startReceiver(() => [503, 'down']);
    try {
      const client = await t.newMerchant({ callbackUrl: receiver.url });
      const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'r', addressType: 'ton' }));
      await t.admin('POST', '/transfers', { toAddress: address, currency: 'ton', amount: '3' });
      const [entry] = await eventually(async () => {
        const current = await log(t, client.credentials.merchantId);
        return current[0]?.state === 'failed' ? current : undefined;
      }, 5000, 'all attempts to fail');
      expect(entry?.attempts).toBe(CALLBACK_RETRY_SCHEDULE_SECONDS.length);
      expect(receiver.received).toHaveLength(8);
      for (const [index, delivery] of receiver.received.entries()) {
        const due = ((CALLBACK_RETRY_SCHEDULE_SECONDS[index] ?? 0) * 1000) / scale;
        expect(delivery.at).toBeGreaterThanOrEqual((entry?.eventAt ?? 0) + Math.floor(due) - 1);
      }
      expect(new Set(receiver.received.map((delivery) => delivery.headers['svc-nonce'])).size).toBe(8);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.received).toHaveLength(8);
      t.expectInvariant();
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  it('logs a failed attempt when no callback URL is configured, and delivers once one is set', async () => {
    const t = await openSandbox({ timeScale: 1000 });
    const receiver = await startReceiver(() => [200, 'success']);
    try {
      const client = await t.newMerchant();
      const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'n', addressType: 'trx' }));
      await t.admin('POST', '/transfers', { toAddress: address, currency: 'trx.usdt', amount: '7' });
      const [failedOnce] = await eventually(async () => {
        const current = await log(t, client.credentials.merchantId);
        return (current[0]?.attempts ?? 0) >= 1 ? current : undefined;
      }, 5000, 'a first attempt');
      expect(failedOnce?.deliveries[0]?.detail).toContain('no callback URL');
      await t.admin('PATCH', `/merchants/${client.credentials.merchantId}`, { callbackUrl: receiver.url });
      await eventually(async () => ((await log(t, client.credentials.merchantId))[0]?.state === 'delivered' ? true : undefined), 5000, 'delivery');
      expect(receiver.received).toHaveLength(1);
      t.expectInvariant();
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

describe('answer timeout (§10.2)', () => {
  it('counts a receiver that does not answer in time as a failed delivery (10 s, scaled, at least 1 s)', async () => {
    const t = await openSandbox({ timeScale: 1000 });
    const held: Array<() => void> = [];
    const server = createServer((request, response) => {
      request.resume();
      if (held.length === 0) {
        held.push(() => response.destroy()); // never answers the first attempt
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('success');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = await t.newMerchant({ callbackUrl: `http://127.0.0.1:${port}/slow` });
      const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'slow', addressType: 'trx' }));
      await t.admin('POST', '/transfers', { toAddress: address, currency: 'trx', amount: '2' });
      const [entry] = await eventually(async () => {
        const current = await log(t, client.credentials.merchantId);
        return current[0]?.state === 'delivered' ? current : undefined;
      }, 8000, 'delivery after a timeout');
      expect(entry?.deliveries[0]).toMatchObject({ outcome: 'failed', httpStatus: null });
      expect(entry?.deliveries[0]?.detail).toContain(`no answer within ${answerTimeoutMs(1000)} ms`);
      expect(entry?.deliveries[1]).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
      expect(answerTimeoutMs(1)).toBe(CALLBACK_TIMEOUT_MS);
      t.expectInvariant();
    } finally {
      for (const release of held) release();
      await t.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});

describe('pending deliveries survive a restart', () => {
  it('delivers after the restart what failed before it', async () => {
    const dir = tempDir();
    const receiver = await startReceiver(() => [500, 'not yet']);
    try {
      // Real-time schedule: the second attempt would come 15 s later, after the restart.
      const before = await openSandbox({ dir, timeScale: 1 });
      const client = await before.newMerchant({ callbackUrl: receiver.url });
      const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'p', addressType: 'eth_bnb' }));
      await before.admin('POST', '/transfers', { toAddress: address, currency: 'bnb', amount: '0.25' });
      await eventually(() => (receiver.received.length === 1 ? true : undefined), 5000, 'the first attempt');
      await eventually(async () => ((await log(before, client.credentials.merchantId))[0]?.attempts === 1 ? true : undefined), 5000, 'the logged attempt');
      await before.close();

      receiver.answer = () => [200, 'success'];
      const after = await openSandbox({ dir, timeScale: 1000 });
      try {
        const [entry] = await eventually(async () => {
          const current = await log(after, client.credentials.merchantId);
          return current[0]?.state === 'delivered' ? current : undefined;
        }, 5000, 'delivery after restart');
        expect(entry?.attempts).toBe(2);
        expect(receiver.received).toHaveLength(2);
        after.expectInvariant();
      } finally {
        await after.close();
      }
    } finally {
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
