// Webhooks on a team desk (real PostgreSQL, sandbox, two notifying workstations): each adds the same endpoint. While
// only A holds the merchant credentials, B queues each event but never sends it; once both hold them, every event is
// claimed once in the team database and reaches the receiver exactly once, signed with the secret of the workstation
// that sent it; the other logs it as sent elsewhere.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryView } from '../../../electron/contract';
import { ADMIN, INITIATOR, tronAddress, type Desk } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';

let desk: Desk;
let a: Workstation;
let b: Workstation;
let server: Server;
let url = '';
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  await emptyTeamDatabase();
  const first = await openFirstWorkstation({}, { notifications: { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 3_600_000, watchdogIntervalMs: 3_600_000 } });
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B', { notifications: true });
  await joinTeam(b, 'B', a, [INITIATOR]);
}, 180_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** This workstation's deliveries of `eventId`, once it settled them (sent, or left to the other). */
async function settled(workstation: Workstation, eventId: string): Promise<WebhookDeliveryView> {
  let found: WebhookDeliveryView | undefined;
  await within(`${workstation.name} settles ${eventId}`, 20_000, async () => {
    found = (await workstation.value('webhooks/deliveries', {})).find((delivery) => delivery.eventId === eventId && delivery.state !== 'pending');
    return found !== undefined;
  });
  return found as WebhookDeliveryView;
}

describe('webhooks on a team desk', () => {
  it('are sent only where the merchant credentials are, and each event once, from whichever workstation claimed it', async () => {
    const secretAt = new Map<string, string>();
    for (const workstation of [a, b]) {
      const added = await workstation.value('webhooks/add', { url, events: ['approval.waiting'], as: ADMIN });
      secretAt.set(workstation.name, added.secret);
    }
    // B has no merchant credentials yet: it queues the event but never sends it; A does.
    await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '20', toAddress: tronAddress(), as: INITIATOR });
    await within('the first event at the receiver', 30_000, async () => received.length === 1);
    const first = String(received[0]?.headers['treasury-desk-event-id']);
    expect(await settled(a, first)).toMatchObject({ state: 'delivered' });
    await within('the first event queued at B', 20_000, async () => (await b.value('webhooks/deliveries', {})).some((delivery) => delivery.eventId === first));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await b.value('webhooks/deliveries', {})).find((delivery) => delivery.eventId === first)).toMatchObject({ state: 'pending', attempts: [] });

    // B holds the merchant credentials too: both may send, so the claim decides.
    await b.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
    for (const amount of ['21', '22', '23']) {
      await a.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR });
    }
    await within('three more events at the receiver', 30_000, async () => new Set(received.map((event) => event.headers['treasury-desk-event-id'])).size === 4);
    const eventIds = [...new Set(received.map((event) => String(event.headers['treasury-desk-event-id'])))].filter((eventId) => eventId !== first);
    for (const eventId of eventIds) {
      const atA = await settled(a, eventId);
      const atB = await settled(b, eventId);
      expect([atA.state, atB.state].sort()).toEqual(['delivered', 'elsewhere']);
      const sender = atA.state === 'delivered' ? 'A' : 'B';
      const [event, ...again] = received.filter((delivery) => delivery.headers['treasury-desk-event-id'] === eventId);
      expect(again).toEqual([]);
      const { t, v1 } = Object.fromEntries(String(event?.headers['treasury-desk-signature']).split(',').map((part) => part.split('='))) as { t: string; v1: string };
      expect(createHmac('sha256', secretAt.get(sender) ?? '').update(`${t}.${event?.body}`).digest('hex')).toBe(v1);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(received).toHaveLength(4);
  }, 120_000);
});
