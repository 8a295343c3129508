// E2E: the emergency freeze in the app (issue 20, part 3). An admin freezes all sending from Settings with a reason
// and their passphrase; every screen then shows the freeze (who, since when, why); an approved withdrawal is held,
// not sent; an approver's freeze is refused with the engine's words; the lift is proposed in the app and, once a
// second admin confirms it, the banner goes and the held withdrawal can be sent. The panel passes axe in both states.
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible } from './support/page-checks';

test.use({ locale: 'en-US' });

test('an admin freezes all sending from Settings; every screen shows it; the lift needs a second admin', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'settings');
  const panel = page.getByTestId('@settings/freeze');
  await expect(panel.getByTestId('@settings/freeze-state')).toHaveText('Sending is not frozen.');
  await expectAccessible(page, 'settings, not frozen');

  // An approver may not freeze: the engine's refusal is shown in the dialog, and nothing changes.
  await panel.getByTestId('@settings/freeze-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toHaveAttribute('data-ready', 'true');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_APPROVER.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_APPROVER.passphrase);
  await dialog.getByTestId('@operator-dialog/reason').fill('not mine to do');
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByRole('alert')).toContainText(`${DEMO_APPROVER.operator} is an approver, not an admin: only an admin freezes sending`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await desk.value('sending/state', {})).toEqual({ frozen: null, lift: null });

  await panel.getByTestId('@settings/freeze-button').click();
  await actAs(page, DEMO_ADMIN, 'suspected key leak');
  await expect(panel.getByTestId('@settings/freeze-state')).toContainText(`Sending is frozen by ${DEMO_ADMIN.operator} since`);
  await expect(panel.getByTestId('@settings/freeze-state')).toContainText('suspected key leak');
  await expectAccessible(page, 'settings, frozen');

  // Every screen carries the freeze.
  for (const screen of ['dashboard', 'withdrawals'] as const) {
    await go(page, screen);
    const banner = page.getByTestId('@banner/frozen');
    await expect(banner).toContainText(`Sending is frozen by ${DEMO_ADMIN.operator}`);
    await expect(banner).toContainText('suspected key leak');
    await expect(banner).toContainText('An admin proposes lifting it');
  }

  // Requests and approvals go on; the send is held, naming the freeze.
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '12.5', toAddress: 'TKzxdSv2FZKQrEqkKVgp5DcwEXBEKMg2Ax', as: DEMO_ADMIN });
  expect((await desk.value('withdrawals/approve', { id: withdrawal.id, as: DEMO_APPROVER })).state).toBe('approved');
  const held = await desk.call('withdrawals/submit', { id: withdrawal.id, as: DEMO_ADMIN });
  expect(held.ok ? null : held.error).toMatchObject({ code: 'held', message: expect.stringMatching(/sending is frozen by/) });

  // One admin proposes the lift in the app: still frozen, and the banner says who proposed it.
  await go(page, 'settings');
  await panel.getByTestId('@settings/unfreeze-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(panel.getByTestId('@settings/unfreeze-pending')).toContainText(`${DEMO_ADMIN.operator} proposed lifting it`);
  await expect(page.getByTestId('@banner/frozen')).toContainText(`${DEMO_ADMIN.operator} proposed lifting it`);

  // A second admin confirms: the freeze is gone from every screen, and the held withdrawal is sent.
  const state = await desk.value('sending/state', {});
  if (state.lift === null) throw new Error('no lift is waiting');
  await desk.value('operators/confirm', { proposal: state.lift.id, as: DEMO_ADMIN_2 });
  await expect(page.getByTestId('@banner/frozen')).toHaveCount(0);
  await expect(panel.getByTestId('@settings/freeze-state')).toHaveText('Sending is not frozen.');
  expect((await desk.value('withdrawals/submit', { id: withdrawal.id, as: DEMO_ADMIN })).state).not.toBe('approved');
});
