// `treasury-desk webhooks` (in process, real sandbox, keychain and SQLite): an admin adds an endpoint and sees its
// signing secret once; list and deliveries never show it; a plain-http url to another machine, an unknown event and an
// initiator are refused; remove takes it away; redelivery of an unknown delivery is refused, naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryView, WebhookEndpointView } from '../../../electron/contract';
import { ADMIN, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, setUpDesk, type CliDesk } from './support';

let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
}, 180_000);
afterAll(async () => desk?.close());

describe('treasury-desk webhooks', () => {
  it('adds an endpoint showing its secret once, lists it without, refuses what is not allowed, removes it', async () => {
    const added = expectOk(await desk.cli(['webhooks', 'add', 'https://hooks.example/desk', '--events', 'order.final,deposit.credited', '--as', ADMIN.name], as(ADMIN))).stdout;
    const secret = /signing secret: (whsec_[A-Za-z0-9_-]{43})\n/.exec(added)?.[1];
    expect(secret).toBeDefined();
    expect(added).toMatch(/^endpoint (\d+): https:\/\/hooks\.example\/desk \(order\.final, deposit\.credited\)\n/);

    const listedText = expectOk(await desk.cli(['webhooks', 'list', '--as', ADMIN.name], as(ADMIN))).stdout;
    expect(listedText).toContain('https://hooks.example/desk');
    const listed = json<WebhookEndpointView[]>(expectOk(await desk.cli(['webhooks', 'list', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(listed).toEqual([expect.objectContaining({ url: 'https://hooks.example/desk', events: ['order.final', 'deposit.credited'], createdBy: 'alice' })]);
    expect(JSON.stringify(listed)).not.toContain(secret?.slice(6));
    expect(json<WebhookDeliveryView[]>(expectOk(await desk.cli(['webhooks', 'deliveries', '--json'])))).toEqual([]);

    expect(expectFailure(await desk.cli(['webhooks', 'add', 'http://hooks.example/desk', '--events', 'order.final', '--as', ADMIN.name], as(ADMIN)), 2)).toContain('must use https');
    expect(expectFailure(await desk.cli(['webhooks', 'add', 'https://hooks.example/desk', '--events', 'order.paid', '--as', ADMIN.name], as(ADMIN)), 2)).toContain('the events are deposit.credited');
    expect(expectFailure(await desk.cli(['webhooks', 'add', 'https://hooks.example/desk', '--events', 'order.final', '--as', INITIATOR.name], as(INITIATOR)), 1)).toContain('forbidden');
    expect(expectFailure(await desk.cli(['webhooks', 'redeliver', '999']), 1)).toContain('no webhook delivery 999');

    const id = String(listed[0]?.id);
    expect(expectOk(await desk.cli(['webhooks', 'remove', id, '--as', ADMIN.name], as(ADMIN))).stdout).toBe(`endpoint ${id} removed\n`);
    expect(json<WebhookEndpointView[]>(expectOk(await desk.cli(['webhooks', 'list', '--as', ADMIN.name, '--json'], as(ADMIN))))).toEqual([]);
  }, 120_000);
});
