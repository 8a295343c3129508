// Outbound webhooks sent by the real engine to a receiver on 127.0.0.1 (core/webhooks): an admin adds an endpoint and
// is shown its secret once; the signature verifies with it; a receiver answering 500 twice gets a third attempt;
// a redelivery sends the same event id again and is logged; a receiver that does not answer keeps nothing waiting;
// the secret is in no answer after add and nowhere in the SQLite files.
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../../electron/core/engine';
import { ADMIN, APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from './support';

const OPTIONS: Partial<EngineOptions> = {
  notifications: { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 3_600_000, watchdogIntervalMs: 3_600_000 },
  webhooks: { retryDelaysMs: [20, 20, 20, 20], pollIntervalMs: 20, timeoutMs: 120_000 },
};

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The receiver: records every request; /flaky answers 500 twice then 200; /slow answers only when released. */
class Receiver {
  readonly received: Received[] = [];
  #flaky = 0;
  #releaseSlow: (() => void)[] = [];
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (path === '/flaky' && this.#flaky++ < 2) {
          response.writeHead(500).end('down for a moment\u202e');
        } else if (path === '/slow') {
          this.#releaseSlow.push(() => response.writeHead(200).end('late'));
        } else {
          response.writeHead(200).end('ok');
        }
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  releaseSlow(): void {
    for (const release of this.#releaseSlow.splice(0)) release();
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    this.releaseSlow();
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

type Verify = (secret: string, header: string | undefined, body: string, nowSeconds?: number) => boolean;
/** The receiver's check exactly as docs/webhooks.md gives it (its ```js block, loaded as a module). */
let verifyAsDocumented: Verify;
function verifies(secret: string, header: string | undefined, body: string): boolean {
  return verifyAsDocumented(secret, header, body);
}

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let desk: Desk;
const receiver = new Receiver();
const secrets: string[] = [];

beforeAll(async () => {
  const snippet = /```js\n([\s\S]*?)```/.exec(readFileSync(join(process.cwd(), 'docs/webhooks.md'), 'utf8'))?.[1] ?? '';
  const path = join(mkdtempSync(join(tmpdir(), 'td-webhook-doc-')), 'verify.mjs');
  writeFileSync(path, snippet);
  verifyAsDocumented = ((await import(pathToFileURL(path).href)) as { verifyTreasuryDeskEvent: Verify }).verifyTreasuryDeskEvent;
  await receiver.start();
  desk = await openDesk({ engine: OPTIONS });
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '50000' } })).status).toBe(200);
  await desk.value('sync/run', {});
}, 120_000);
afterAll(async () => {
  await receiver.close();
  await desk?.close();
});

async function addEndpoint(path: string): Promise<{ id: number; secret: string }> {
  const added = await desk.value('webhooks/add', { url: `${receiver.url}${path}`, events: ['approval.waiting', 'order.final'], as: ADMIN });
  secrets.push(added.secret);
  return added;
}

async function requestWithdrawal(amount: string): Promise<string> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR });
  return withdrawal.id;
}

describe('endpoints', () => {
  it('are added by an admin only, https or loopback http only, audited; the secret is shown once', async () => {
    expect(await desk.call('webhooks/add', { url: 'http://example.com/hook', events: ['order.final'], as: ADMIN })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await desk.call('webhooks/add', { url: 'ftp://127.0.0.1/hook', events: ['order.final'], as: ADMIN })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await desk.call('webhooks/add', { url: 'https://example.com/hook', events: ['order.paid'], as: ADMIN })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await desk.call('webhooks/add', { url: 'https://example.com/hook', events: ['order.final'], as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await desk.call('webhooks/add', { url: 'https://example.com/hook', events: ['order.final'], as: { ...ADMIN, passphrase: 'wrong' } })).toMatchObject({ ok: false, error: { code: 'wrongPassphrase' } });

    const added = await desk.value('webhooks/add', { url: 'https://example.com/hook', events: ['order.final', 'order.final'], as: ADMIN });
    secrets.push(added.secret);
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(added).toMatchObject({ url: 'https://example.com/hook', events: ['order.final'], enabled: true, createdBy: 'alice' });
    const listed = await desk.value('webhooks/list', { as: ADMIN });
    expect(listed).toEqual([{ id: added.id, url: 'https://example.com/hook', events: ['order.final'], enabled: true, createdBy: 'alice', createdAt: added.createdAt }]);
    expect(await desk.call('webhooks/list', { as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    expect(await desk.value('webhooks/remove', { id: added.id, as: ADMIN })).toEqual({ removed: added.id });
    expect(await desk.value('webhooks/list', { as: ADMIN })).toEqual([]);
    const audit = await desk.value('audit/list', { limit: 20 });
    expect(audit.rows.filter((row) => row.action.startsWith('webhooks/')).map((row) => [row.action, row.operator, row.subject])).toEqual([
      ['webhooks/remove', 'alice', 'https://example.com/hook'],
      ['webhooks/add', 'alice', 'https://example.com/hook'],
    ]);
  }, 120_000);
});

describe('deliveries', () => {
  it('sign each event with the endpoint secret; a receiver answering 500 twice gets three attempts; redelivery sends the same event again', async () => {
    const ok = await addEndpoint('/ok');
    const flaky = await addEndpoint('/flaky');
    const id = await requestWithdrawal('12.5');

    const [event] = await until('the event at /ok', () => receiver.at('/ok').length === 1 && receiver.at('/ok'));
    const body = JSON.parse(event?.body ?? '{}') as { id: string; type: string; created: number; data: Record<string, unknown> };
    expect(body).toMatchObject({ type: 'approval.waiting', data: { kind: 'withdrawal', requestId: id, currency: 'trx.usdt', amount: '12.5' } });
    expect(body.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(event?.headers['treasury-desk-event-id']).toBe(body.id);
    expect(verifies(ok.secret, event?.headers['treasury-desk-signature'] as string, event?.body ?? '')).toBe(true);
    // Another endpoint's secret, or a body changed by one byte, does not verify.
    expect(verifies(flaky.secret, event?.headers['treasury-desk-signature'] as string, event?.body ?? '')).toBe(false);
    expect(verifies(ok.secret, event?.headers['treasury-desk-signature'] as string, (event?.body ?? '').replace('12.5', '12.6'))).toBe(false);
    // The replay window: the same signed request more than 5 minutes later is refused.
    expect(verifyAsDocumented(ok.secret, event?.headers['treasury-desk-signature'] as string, event?.body ?? '', Math.floor(Date.now() / 1000) + 301)).toBe(false);
    const signedAt = Number(/t=(\d+)/.exec(String(event?.headers['treasury-desk-signature']))?.[1]);
    expect(createHmac('sha256', ok.secret).update(`${signedAt}.${event?.body}`).digest('hex')).toBe(/v1=([0-9a-f]{64})$/.exec(String(event?.headers['treasury-desk-signature']))?.[1]);

    const attempts = await until('three attempts at /flaky', () => receiver.at('/flaky').length >= 3 && receiver.at('/flaky'));
    expect(attempts.map((attempt) => attempt.headers['treasury-desk-event-id'])).toEqual([body.id, body.id, body.id]);
    for (const attempt of attempts) expect(verifies(flaky.secret, attempt.headers['treasury-desk-signature'] as string, attempt.body)).toBe(true);
    const [flakyDelivery] = await until('the flaky delivery settled', async () => {
      const log = await desk.value('webhooks/deliveries', { endpoint: flaky.id });
      return log[0]?.state === 'delivered' && log;
    });
    expect(flakyDelivery?.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
    expect(flakyDelivery?.attempts[0]?.snippet).toBe('down for a moment⟨U+202E⟩');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.at('/flaky')).toHaveLength(3);

    const [okDelivery] = await desk.value('webhooks/deliveries', { endpoint: ok.id });
    expect(okDelivery).toMatchObject({ eventId: body.id, eventType: 'approval.waiting', state: 'delivered', redeliveryOf: null, attempts: [{ status: 200, error: null }] });
    const again = await desk.value('webhooks/redeliver', { id: okDelivery?.id });
    expect(again).toMatchObject({ eventId: body.id, redeliveryOf: okDelivery?.id, state: 'pending' });
    const redelivered = await until('the redelivery', () => receiver.at('/ok').length === 2 && receiver.at('/ok')[1]);
    expect(redelivered.headers['treasury-desk-event-id']).toBe(body.id);
    expect(JSON.parse(redelivered.body)).toEqual(body);
    expect(verifies(ok.secret, redelivered.headers['treasury-desk-signature'] as string, redelivered.body)).toBe(true);
    const log = await until('the redelivery logged', async () => {
      const deliveries = await desk.value('webhooks/deliveries', { endpoint: ok.id });
      return deliveries[0]?.state === 'delivered' && deliveries;
    });
    expect(log.map((delivery) => [delivery.eventId, delivery.redeliveryOf, delivery.state])).toEqual([
      [body.id, okDelivery?.id, 'delivered'],
      [body.id, null, 'delivered'],
    ]);

    for (const endpoint of [ok, flaky]) await desk.value('webhooks/remove', { id: endpoint.id, as: ADMIN });
  }, 120_000);

  it('a receiver that does not answer keeps no withdrawal request or sync waiting', async () => {
    const slow = await addEndpoint('/slow');
    await requestWithdrawal('13');
    await until('the event held at /slow', () => receiver.at('/slow').length === 1);
    // While that delivery is in flight, the desk goes on: a new request and a sync return, the receiver still silent.
    await requestWithdrawal('14');
    await desk.value('sync/run', {});
    const [held] = await desk.value('webhooks/deliveries', { endpoint: slow.id }).then((log) => log.filter((delivery) => delivery.attempts.length === 0 && delivery.state === 'pending'));
    expect(held).toBeDefined();
    await until('the second event at /slow too', () => receiver.at('/slow').length === 2);
    receiver.releaseSlow();
    await until('both delivered', async () => (await desk.value('webhooks/deliveries', { endpoint: slow.id })).every((delivery) => delivery.state === 'delivered'));
    await desk.value('webhooks/remove', { id: slow.id, as: ADMIN });
  }, 120_000);
});

describe('events', () => {
  it('tell a deposit credited and an order final, amounts as decimal strings, each once', async () => {
    const added = await desk.value('webhooks/add', { url: `${receiver.url}/events`, events: ['deposit.credited', 'order.final'], as: ADMIN });
    secrets.push(added.secret);
    const merchantId = desk.sandbox.credentials.merchantId;
    const address = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;
    // The sandbox credits the amount less its 0.5 % fee: 100.000001.
    expect((await desk.admin('POST', '/transfers', { toAddress: address, currency: 'trx.usdt', amount: '100.502514' })).status).toBe(200);
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '15.000001', toAddress: tronAddress(), as: INITIATOR });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    for (const status of ['pendingTransfer', 'pendingCallback', 'success']) {
      expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to: status })).status).toBe(200);
    }
    await desk.value('sync/run', {});
    const events = await until('both events', () => receiver.at('/events').length >= 2 && receiver.at('/events'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bodies = receiver.at('/events').map((event) => JSON.parse(event.body) as { type: string; data: Record<string, unknown> });
    expect(bodies.map((body) => body.type).sort()).toEqual(['deposit.credited', 'order.final']);
    expect(bodies.find((body) => body.type === 'deposit.credited')?.data).toMatchObject({ currency: 'trx.usdt', amount: '100.000001' });
    expect(bodies.find((body) => body.type === 'order.final')?.data).toMatchObject({ requestId: withdrawal.id, userOrder: withdrawal.userOrder, amount: '15.000001', state: 'completed', orderStatus: 'success' });
    for (const event of events) expect(verifies(added.secret, event.headers['treasury-desk-signature'] as string, event.body)).toBe(true);
    await desk.value('webhooks/remove', { id: added.id, as: ADMIN });
  }, 120_000);

  it('tell a freeze of all sending once, with who froze it and why', async () => {
    const added = await desk.value('webhooks/add', { url: `${receiver.url}/frozen`, events: ['sending.frozen'], as: ADMIN });
    secrets.push(added.secret);
    await desk.value('sending/freeze', { reason: 'a key may have leaked', as: ADMIN });
    const [event] = await until('the freeze event', () => receiver.at('/frozen').length === 1 && receiver.at('/frozen'));
    expect(JSON.parse(event?.body ?? '{}')).toMatchObject({ type: 'sending.frozen', data: { by: 'alice', reason: 'a key may have leaked', since: expect.any(Number) } });
    // Another change reviewed while the freeze holds tells nothing new.
    await requestWithdrawal('16');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at('/frozen')).toHaveLength(1);
    await desk.value('webhooks/remove', { id: added.id, as: ADMIN });
  }, 120_000);
});

describe('the hostile database', () => {
  it('an endpoint url pointed elsewhere gets nothing, and an edited delivery is not sent again', async () => {
    const honest = await addEndpoint('/honest');
    const moved = await addEndpoint('/moved');
    const edit = new Database(desk.dbPath);
    try {
      edit.prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?').run(`${receiver.url}/stolen`, moved.id);
      await requestWithdrawal('17');
      const [event] = await until('the event at /honest', () => receiver.at('/honest').length === 1 && receiver.at('/honest'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([...receiver.at('/stolen'), ...receiver.at('/moved')]).toEqual([]);

      const eventId = String(event?.headers['treasury-desk-event-id']);
      const [delivered] = await until('the honest delivery settled', async () => {
        const log = await desk.value('webhooks/deliveries', { endpoint: honest.id });
        return log[0]?.state === 'delivered' && log;
      });
      expect(delivered?.eventId).toBe(eventId);
      edit.prepare("UPDATE webhook_deliveries SET body = replace(body, '\"17\"', '\"170000\"') WHERE id = ?").run(delivered?.id);
      expect(await desk.call('webhooks/redeliver', { id: delivered?.id })).toMatchObject({ ok: false, error: { code: 'unverified' } });
      expect(receiver.at('/honest')).toHaveLength(1);
    } finally {
      edit.close();
    }
    for (const endpoint of [honest, moved]) await desk.value('webhooks/remove', { id: endpoint.id, as: ADMIN });
  }, 120_000);
});

describe('the signing secrets', () => {
  it('appear in no answer after add and nowhere in the SQLite files', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    const answers = JSON.stringify([
      await desk.value('webhooks/list', { as: ADMIN }),
      await desk.value('webhooks/deliveries', {}),
      await desk.value('audit/list', { limit: 100 }),
    ]);
    for (const path of [desk.dbPath, `${desk.dbPath}-wal`]) {
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path);
      for (const secret of secrets) {
        expect(bytes.includes(Buffer.from(secret))).toBe(false);
        expect(bytes.includes(Buffer.from(secret.slice('whsec_'.length)))).toBe(false);
      }
    }
    for (const secret of secrets) expect(answers).not.toContain(secret.slice('whsec_'.length));
  }, 120_000);
});
