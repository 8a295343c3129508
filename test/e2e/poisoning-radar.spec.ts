// E2E: the poisoning radar in the app (issue 21 item 3). Dust credited through the sandbox's admin API from a
// look-alike of an address-book entry shows on the dashboard (what it looks like, how, its first deposit, refused) and
// badges its deposit row; one admin proposes clearing it from the dashboard, a second confirms it, and the card says it
// is cleared. Both screens pass axe with the alert shown.
import { randomBytes } from 'node:crypto';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

test.use({ locale: 'en-US' });

test('a deposit from a look-alike is flagged on the dashboard and its row, and clearing it takes two admins', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const known = randomBytes(20).toString('hex');
  const other = (digit: string | undefined): string => (digit === 'a' ? 'b' : 'a');
  const lookAlike = `0x${known.slice(0, 4)}${other(known[4])}${randomBytes(15).toString('hex')}${other(known[35])}${known.slice(36)}`;
  const added = await desk.value('addressbook/add', { chain: 'eth', address: `0x${known}`, label: 'Supplier', as: DEMO_ADMIN });
  const pending = added.pending.find((entry) => entry.address === `0x${known}`);
  if (pending !== undefined) await desk.value('addressbook/approve', { proposal: pending.proposal, as: DEMO_APPROVER });
  const deposit = await desk.value('addresses/create', { addressType: 'eth_bnb', as: DEMO_ADMIN });
  expect((await sandboxAdmin(desk.demoSandbox().baseUrl).transfer({ toAddress: deposit.address, currency: 'bnb.usdt', amount: '1', fromAddress: lookAlike })).credited).toBe(true);
  await desk.value('sync/run', {});

  await go(page, 'dashboard');
  const card = page.getByTestId('@dashboard/radar');
  await expect(card.getByRole('heading')).toHaveText('1 likely address-poisoning sender refused');
  const item = card.getByTestId('@dashboard/radar-item');
  await expect(item).toContainText(lookAlike);
  await expect(item).toContainText(`looks like eth:0x${known} (the same first 4 and last 4 characters)`);
  await expect(item.getByTestId('@dashboard/radar-status')).toHaveText('Refused: it cannot be paid');
  await expectAccessible(page, 'dashboard with a radar alert');

  await go(page, 'deposits');
  const badge = page.getByTestId('@deposits/poisoning');
  await expect(badge).toHaveCount(1);
  await expect(badge).toHaveAttribute('title', new RegExp(`Looks like address-book entry eth:0x${known} \\(the same first 4 and last 4 characters\\)`));
  await expectAccessible(page, 'deposits with a look-alike');

  await go(page, 'dashboard');
  await item.getByTestId('@dashboard/radar-clear').click();
  await actAs(page, DEMO_ADMIN);
  await expect(item).toHaveAttribute('data-status', 'clearing');
  await expect(item.getByTestId('@dashboard/radar-clear')).toHaveText('Confirm the clearance');
  await item.getByTestId('@dashboard/radar-clear').click();
  await actAs(page, DEMO_ADMIN_2);
  await expect(item).toHaveAttribute('data-status', 'cleared');
  await expect(card.getByRole('heading')).toHaveText('Address-poisoning senders, cleared');
  expect((await desk.value('radar/list', {})).blocked).toBe(0);
});
