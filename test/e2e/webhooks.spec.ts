// E2E: Settings' Webhooks panel against a receiver on 127.0.0.1. An admin adds an endpoint for approvals waiting (with
// their passphrase) and is shown its signing secret once; a withdrawal request reaches the receiver signed with that
// secret; the delivery log shows it delivered, and Redeliver sends the same event id again, logged as a redelivery;
// "Show endpoints" lists it without the secret; the panel passes axe.
import { createHmac } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

test('an admin adds a webhook endpoint, sees its secret once, and redelivers an event from the log', async ({ page, desk }) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await startDemo(page, desk.url);
    await go(page, 'settings');
    const panel = page.getByTestId('@settings/webhooks');
    await panel.getByTestId('@settings/webhook-url').fill(url);
    await panel.getByTestId('@settings/webhook-event-order.final').uncheck();
    await panel.getByTestId('@settings/webhook-event-approval.waiting').check();
    await panel.getByTestId('@settings/webhook-add').click();
    await actAs(page, DEMO_ADMIN);
    const secret = await panel.getByTestId('@settings/webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '40', toAddress: `0x${randomBytes(20).toString('hex')}`, as: DEMO_ADMIN });
    await expect.poll(() => received.length).toBe(1);
    const [event] = received;
    const body = JSON.parse(event?.body ?? '{}') as { id: string; type: string; data: Record<string, unknown> };
    expect(body).toMatchObject({ type: 'approval.waiting', data: { requestId: withdrawal.id, amount: '40' } });
    const { t, v1 } = Object.fromEntries(String(event?.headers['treasury-desk-signature']).split(',').map((part) => part.split('='))) as { t: string; v1: string };
    expect(createHmac('sha256', secret).update(`${t}.${event?.body}`).digest('hex')).toBe(v1);

    const rows = panel.getByTestId('@settings/webhook-delivery');
    await expect(async () => {
      await panel.getByTestId('@settings/webhook-refresh').click();
      await expect(rows.first()).toHaveAttribute('data-state', 'delivered', { timeout: 1_000 });
    }).toPass();
    await expect(rows.first()).toContainText('HTTP 200');
    await rows.first().getByTestId('@settings/webhook-redeliver').click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]?.headers['treasury-desk-event-id']).toBe(body.id);
    await expect(async () => {
      await panel.getByTestId('@settings/webhook-refresh').click();
      await expect(rows).toHaveCount(2, { timeout: 1_000 });
      await expect(rows.first()).toHaveAttribute('data-state', 'delivered', { timeout: 1_000 });
    }).toPass();
    await expect(rows.first()).toContainText('again, of');
    await expect(rows.first()).toHaveAttribute('data-event', body.id);

    await panel.getByTestId('@settings/webhook-show').click();
    await actAs(page, DEMO_ADMIN);
    const endpoint = panel.getByTestId('@settings/webhook-endpoint');
    await expect(endpoint).toHaveCount(1);
    await expect(endpoint).toContainText(url);
    await expect(endpoint).not.toContainText('whsec_');
    await expectAccessible(page, 'settings with webhooks');
    await saveScreenshot(page, 'settings-webhooks');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
