// E2E: time-locked loosening in the app (issue 20, part 4). An admin sets a 24 h loosening delay from the governance
// panel in Settings (a second admin confirms); a higher daily limit, confirmed, is listed as waiting with what it loosens,
// who made it and its effective time (checked against the signed change); a book addition confirmed under the delay
// is shown in the address book as "takes effect at …", not as in the book; an approver signed in sees the lists without
// the actions; a second admin vetoes the limit from the panel with a reason and it is shown vetoed, and the addition
// from the address book; a freeze's lift confirmed under the delay shows when sending resumes. The panel and the book
// pass axe in each state.
import { randomBytes } from 'node:crypto';
import { isoInZone } from '../../electron/contract/time-zone';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, signInAs, startDemo } from './support/flows';
import { expectAccessible } from './support/page-checks';

test.use({ locale: 'en-US' });

test('a loosening change waits for the delay on the governance panel and in the book, and a second admin vetoes it', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'settings');
  const panel = page.getByTestId('@settings/governance');
  await expect(panel.getByTestId('@governance/setting')).toContainText('A change that loosens the rules takes effect at once.');
  await expect(panel.getByTestId('@governance/set-by')).toHaveText("The desk's defaults: nobody has set the governance.");
  await expect(panel.getByTestId('@governance/pending-empty')).toBeVisible();

  // A bad delay is named next to the field and nothing is proposed.
  await panel.getByTestId('@governance/delay').fill('1000');
  await panel.getByTestId('@governance/propose-button').click();
  await expect(panel.getByTestId('@governance/delay-error')).toContainText('from 0 to 720');
  await expect(page.getByTestId('@operator-dialog')).toBeHidden();
  expect((await desk.value('governance/state', {})).proposal).toBeNull();

  // The admin proposes a 24 h delay in the app; the second admin confirms it.
  await panel.getByTestId('@governance/delay').fill('24');
  await panel.getByTestId('@governance/propose-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(panel.getByTestId('@governance/outcome')).toContainText('Proposed: it waits for another admin');
  await expect(panel.getByTestId('@governance/proposal')).toContainText(`${DEMO_ADMIN.operator} proposed to set the desk's governance: loosening waits 24 h`);
  const proposal = (await desk.value('governance/state', {})).proposal;
  if (proposal === null) throw new Error('no governance change waits');
  await desk.value('operators/confirm', { proposal: proposal.id, as: DEMO_ADMIN_2 });
  await expect(panel.getByTestId('@governance/setting')).toContainText('waits 24 h before it takes effect');
  await expect(panel.getByTestId('@governance/set-by')).toContainText(`Set by ${DEMO_ADMIN.operator}, confirmed by ${DEMO_ADMIN_2.operator}; in force since`);
  await expect(panel.getByTestId('@governance/proposal')).toHaveCount(0);

  // A daily limit of 1,000 tightens (at once); raising it to 5,000 loosens: it waits for the delay.
  const policy = { currency: 'trx.usdt' as const, thresholds: [{ above: '0', approvals: 1 }], useFinancialConfirmation: false };
  const tighten = await desk.value('policies/set', { ...policy, dailyLimit: '1000', as: DEMO_ADMIN });
  await desk.value('operators/confirm', { proposal: tighten.proposal.id, as: DEMO_ADMIN_2 });
  const loosen = await desk.value('policies/set', { ...policy, dailyLimit: '5000', as: DEMO_ADMIN });
  await desk.value('operators/confirm', { proposal: loosen.proposal.id, as: DEMO_ADMIN_2 });
  const scheduled = (await desk.value('governance/state', {})).pending.find((change) => change.id === loosen.proposal.id);
  if (scheduled === undefined) throw new Error('the higher limit is not scheduled');
  const row = panel.locator(`[data-testid="@governance/change"][data-id="${scheduled.id}"]`);
  await expect(row).toHaveAttribute('data-state', 'waiting');
  await expect(row).toContainText('withdrawal policy');
  await expect(row.getByTestId('@governance/change-loosens')).toHaveText('a higher daily limit');
  await expect(row).toContainText(`${DEMO_ADMIN.operator}, confirmed by ${DEMO_ADMIN_2.operator}`);
  // The effective time, in the reporting zone (UTC here), is the signed change's, and said relative to now.
  await expect(row.getByTestId('@governance/change-effective').locator('time')).toHaveAttribute('datetime', isoInZone(scheduled.effectiveAt, 'UTC'));
  await expect(row.getByTestId('@governance/change-effective')).toContainText(/UTC \(in (23|24) h\)/);
  await expectAccessible(page, 'settings, a loosening change waiting');

  // A book addition confirmed under the delay: waiting for it, not in the book, not waiting for approval.
  const supplier = `0x${randomBytes(20).toString('hex')}`;
  const added = await desk.value('addressbook/add', { chain: 'eth', address: supplier, label: 'Supplier ACME', as: DEMO_ADMIN });
  const addition = added.pending.find((entry) => entry.address === supplier);
  if (addition === undefined) throw new Error('the book addition is not pending');
  const book = await desk.value('addressbook/approve', { proposal: addition.proposal, as: DEMO_APPROVER });
  const takesEffectAt = book.entries.find((entry) => entry.address === supplier)?.scheduled?.takesEffectAt ?? 0;
  await go(page, 'addressBook');
  const entry = page.locator(`[data-testid="@book/entry"][data-address="${supplier}"]`);
  await expect(entry.getByTestId('@book/status')).toHaveAttribute('data-status', 'scheduled');
  await expect(entry.getByTestId('@book/takes-effect')).toContainText(`takes effect at`);
  await expect(entry.getByTestId('@book/takes-effect')).toContainText(`added by ${DEMO_ADMIN.operator}, approved by ${DEMO_APPROVER.operator}`);
  await expect(entry.getByTestId('@book/takes-effect').locator('time')).toHaveAttribute('datetime', isoInZone(takesEffectAt, 'UTC'));
  await expect(entry).not.toContainText('in the book');
  await expect(page.getByTestId('@book/pending-empty')).toBeVisible();
  await expect(entry.getByTestId('@book/veto-button')).toBeVisible();
  await expectAccessible(page, 'address book, an addition waiting for its delay');

  // An approver signed in here sees the lists, without a veto or the governance form.
  await signInAs(page, DEMO_APPROVER);
  await expect(entry.getByTestId('@book/status')).toHaveAttribute('data-status', 'scheduled');
  await expect(entry.getByTestId('@book/veto-button')).toHaveCount(0);
  await go(page, 'settings');
  await expect(row).toBeVisible();
  await expect(panel.getByTestId('@governance/veto-button')).toHaveCount(0);
  await expect(panel.getByTestId('@governance/form')).toHaveCount(0);

  // The second admin vetoes the higher limit from the panel, with a reason: shown vetoed, and it never takes effect.
  await signInAs(page, DEMO_ADMIN_2);
  await go(page, 'settings');
  await row.getByTestId('@governance/veto-button').click();
  await expect(page.getByTestId('@operator-dialog/description')).toContainText('withdrawal policy would take effect at');
  await actAs(page, DEMO_ADMIN_2, 'not agreed');
  await expect(row).toHaveCount(0);
  const vetoed = panel.locator(`[data-testid="@governance/settled"][data-id="${scheduled.id}"]`);
  await expect(vetoed).toHaveAttribute('data-state', 'vetoed');
  await expect(vetoed).toContainText(`vetoed by ${DEMO_ADMIN_2.operator}`);
  await expect(vetoed).toContainText(': not agreed');
  const state = await desk.value('governance/state', {});
  expect(state.pending.map((change) => change.id)).toEqual([addition.proposal]);
  expect(state.recent[0]).toMatchObject({ id: scheduled.id, state: 'vetoed', vetoedBy: DEMO_ADMIN_2.operator, vetoReason: 'not agreed' });
  await expectAccessible(page, 'settings, a change vetoed');

  // And the book addition from the address book: it never enters the book.
  await go(page, 'addressBook');
  await entry.getByTestId('@book/veto-button').click();
  await actAs(page, DEMO_ADMIN_2);
  await expect(entry.getByTestId('@book/status')).toHaveAttribute('data-status', 'seen');
  expect((await desk.value('governance/state', {})).pending).toEqual([]);

  // A freeze's lift confirmed under the delay waits for it: the freeze panel says when sending resumes and who lifted it.
  await desk.value('sending/freeze', { reason: 'drill', as: DEMO_ADMIN });
  const lifting = await desk.value('sending/unfreeze', { as: DEMO_ADMIN });
  await desk.value('operators/confirm', { proposal: lifting.lift?.id ?? '', as: DEMO_ADMIN_2 });
  const liftAt = (await desk.value('sending/state', {})).frozen?.liftAt ?? 0;
  await go(page, 'settings');
  const lift = page.getByTestId('@settings/unfreeze-scheduled');
  await expect(lift).toContainText(`${DEMO_ADMIN.operator} and ${DEMO_ADMIN_2.operator} lifted the freeze, unless an admin vetoes the lift`);
  await expect(lift.locator('time')).toHaveAttribute('datetime', isoInZone(liftAt, 'UTC'));
  await expect(page.getByTestId('@settings/unfreeze-button')).toHaveCount(0);
  await expect(panel.locator('[data-testid="@governance/change"]')).toContainText('The lift of the freeze on sending');
});
