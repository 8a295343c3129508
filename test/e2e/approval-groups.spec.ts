// E2E: approval groups, tiers naming them and approvals that expire, on screen (issue 20, parts 2 and 5). The approve
// dialog and the queue detail name the groups still needed, checked against the signed policy; an approval past the
// policy's validity (the desk's and the sandbox's clocks moved together, never a sleep) is shown expired, "Approve
// again" renews it and the send goes; the policy editor keeps a tier's groups and the expiry on save and shows them;
// the Operators screen lists groups, proposes one and confirms it four-eyes. Each screen passes axe.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, type Desk } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

test.use({ locale: 'en-US' });

const HOUR = 3_600_000;
const address = (): string => `0x${randomBytes(20).toString('hex')}`;

/** A group in force: proposed by one admin, confirmed by the other when the desk has four-eyes. */
async function groupInForce(desk: Desk, group: string, members: string[]): Promise<void> {
  const change = await desk.value('operators/setGroup', { group, members, as: DEMO_ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: DEMO_ADMIN_2 });
}

/** Confirms the one open policy proposal, as the second admin. */
async function confirmPolicy(desk: Desk): Promise<void> {
  const open = (await desk.value('operators/list', {})).proposals.filter((proposal) => proposal.kind === 'policy' && proposal.state === 'open');
  expect(open).toHaveLength(1);
  await desk.value('operators/confirm', { proposal: open[0]!.id, as: DEMO_ADMIN_2 });
}

async function openQueued(page: Page, id: string): Promise<ReturnType<Page['locator']>> {
  await go(page, 'withdrawals');
  return page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${id}"]`);
}

test('a tier naming groups: the approve dialog and the queue detail say which groups are still needed, as the signed policy says', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await groupInForce(desk, 'finance', [DEMO_APPROVER.operator]);
  await groupInForce(desk, 'leads', [DEMO_ADMIN_2.operator]);
  const change = await desk.value('policies/set', {
    currency: 'eth.usdt',
    thresholds: [{ above: '1000', approvals: 2, groups: [[{ group: 'finance', count: 1 }, { group: 'leads', count: 1 }]] }],
    dailyLimit: null,
    useFinancialConfirmation: false,
    as: DEMO_ADMIN,
  });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: DEMO_ADMIN_2 });
  // What the signed policy in force says the tier needs, in the approver's words.
  const tier = (await desk.value('policies/list', {})).find((policy) => policy.currency === 'eth.usdt')?.thresholds[0];
  const terms = (tier?.groups ?? []).flat().map((term) => `${term.count} of ${term.group}`);
  expect(terms).toEqual(['1 of finance', '1 of leads']);
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '1250.5', toAddress: address(), as: DEMO_ADMIN });

  const queued = await openQueued(page, withdrawal.id);
  await queued.getByTestId('@withdrawals/approve-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toHaveAttribute('data-ready', 'true');
  await expect(dialog.getByTestId('@operator-dialog/review/rule')).toContainText(`approval groups: ${terms.join(' and ')}`);
  await expect(dialog.getByTestId('@operator-dialog/review/needed')).toContainText(`from the approval groups: ${terms.join(' and ')}`);
  await expect(dialog.getByTestId('@operator-dialog/review/needed')).toHaveAttribute('data-warn', 'true');
  await expectAccessible(page, 'approve dialog naming the groups still needed');
  // demo-approver stands for finance: leads is still needed.
  await actAs(page, DEMO_APPROVER);

  await queued.getByTestId('@withdrawals/details-button').click();
  const needed = page.getByTestId('@withdrawals/detail-review/needed');
  await expect(needed).toContainText('from the approval groups: 1 of leads');
  await expect(needed).not.toContainText('1 of finance');
  await expectAccessible(page, 'queue detail naming the groups still needed');

  // The lead approves in the dialog: nothing is still needed, and the request may be sent.
  await queued.getByTestId('@withdrawals/approve-button').click();
  await expect(dialog.getByTestId('@operator-dialog/review/needed')).toContainText('1 of leads');
  await actAs(page, DEMO_ADMIN_2);
  await queued.getByTestId('@withdrawals/details-button').click();
  await expect(needed).toContainText('none: 2 of 2 independent approvals given');
  await expect(queued.getByTestId('@withdrawals/submit-button')).toBeVisible();
});

test('an expired approval is shown as expired; "Approve again" renews it and the send goes', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  // The clocks move by an hour below: the idle lock must not take the desk away meanwhile.
  await desk.value('settings/setLockTimeout', { seconds: 0, as: DEMO_ADMIN });
  const change = await desk.value('policies/set', { currency: 'eth.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, approvalValidHours: 1, as: DEMO_ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: DEMO_ADMIN_2 });
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: address(), as: DEMO_ADMIN });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: DEMO_APPROVER });

  const queued = await openQueued(page, withdrawal.id);
  // Within the hour: approved, nothing to approve again.
  await expect(queued.getByTestId('@withdrawals/submit-button')).toBeVisible();
  await expect(queued.getByTestId('@withdrawals/approve-again-button')).toHaveCount(0);

  // An hour and a minute later for the desk and the service alike.
  desk.harness.moveClock(HOUR + 60_000);
  await sandboxAdmin(desk.demoSandbox().baseUrl).setClock((HOUR + 60_000) / 1000);
  // The engine refuses the send, naming the expiry.
  const refused = await desk.call('withdrawals/submit', { id: withdrawal.id, as: DEMO_ADMIN });
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.error.message).toContain(`the approval of ${DEMO_APPROVER.operator} expired`);

  // The queue is read again on opening the screen.
  await go(page, 'dashboard');
  await openQueued(page, withdrawal.id);
  await queued.getByTestId('@withdrawals/details-button').click();
  const given = page.getByTestId('@withdrawals/detail-review/given');
  await expect(given).toContainText(`${DEMO_APPROVER.operator} at`);
  await expect(given).toContainText('expired');
  await expect(given).toHaveAttribute('data-warn', 'true');
  await expect(page.getByTestId('@withdrawals/detail-review/needed')).toContainText(`expired, to be given again: ${DEMO_APPROVER.operator}`);
  await expect(page.getByTestId('@withdrawals/detail-approve-again-button')).toBeVisible();
  await expectAccessible(page, 'queue detail with an expired approval');

  await queued.getByTestId('@withdrawals/approve-again-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toHaveAttribute('data-ready', 'true');
  await expect(dialog.getByRole('heading', { name: 'Approve withdrawal again' })).toBeVisible();
  await expect(dialog.getByTestId('@operator-dialog/review/given')).toContainText('expired');
  await expect(dialog.getByTestId('@operator-dialog/review/needed')).toContainText('1 more');
  await expectAccessible(page, 'approve-again dialog');
  await saveScreenshot(page, 'withdrawals-approve-again-dialog');
  // The same approver approves again.
  await actAs(page, DEMO_APPROVER);
  await expect(queued.getByTestId('@withdrawals/approve-again-button')).toHaveCount(0);
  await expect(page.getByTestId('@withdrawals/detail-review/needed')).toContainText('none: 1 of 1 independent approval given');

  await queued.getByTestId('@withdrawals/submit-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect.poll(async () => (await desk.value('withdrawals/get', { id: withdrawal.id })).state).toBe('submitted');
});

test('the policy editor keeps a tier\'s groups and the approvals\' expiry on save, and shows them', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await groupInForce(desk, 'finance', [DEMO_APPROVER.operator]);
  await groupInForce(desk, 'leads', [DEMO_ADMIN_2.operator]);
  const before = (await desk.value('policies/list', {})).find((policy) => policy.currency === 'eth.usdt');
  const row = (before?.thresholds.length ?? 0) + 1;

  await go(page, 'settings');
  await page.getByRole('button', { name: 'Edit the USDT on Ethereum policy' }).click();
  const editor = page.getByTestId('@settings/policy-editor');
  await editor.getByRole('button', { name: 'Add a threshold' }).click();
  await editor.getByLabel(`Above amount #${row}`).fill('1000');
  await editor.getByLabel('Approvals', { exact: true }).nth(row - 1).selectOption('2');
  // Bad input: a clear error next to each field, and nothing is proposed.
  await editor.getByLabel(`Approval groups #${row} (empty for none)`).fill('finance+Leads!');
  await editor.getByLabel('Approvals expire after (hours, empty for never)').fill('0');
  await editor.getByTestId('@settings/policy-save').click();
  await expect(editor.getByTestId(`@settings/policy-groups-${row - 1}-error`)).toContainText('"Leads!" is not a group');
  await expect(editor.getByTestId('@settings/policy-valid-hours-error')).toContainText('from 1 to 720, or leave it empty');
  await expect(page.getByTestId('@operator-dialog')).toBeHidden();
  await expectAccessible(page, 'the policy editor with field errors');
  expect((await desk.value('operators/list', {})).proposals.filter((proposal) => proposal.kind === 'policy')).toEqual([]);

  // The preview is asked about the same draft, groups included: a group no roster defines is named there.
  const summary = editor.getByTestId('@settings/policy-preview-summary');
  await editor.getByLabel('Approvals expire after (hours, empty for never)').fill('24');
  await editor.getByLabel(`Approval groups #${row} (empty for none)`).fill('finance+cfo');
  await expect(summary).toContainText('Not previewed');
  await expect(summary).toContainText('cfo');
  await editor.getByLabel(`Approval groups #${row} (empty for none)`).fill('finance + leads');
  await expect(summary).toContainText('for approval or sending');
  await expect(summary).not.toContainText('Not previewed');
  await editor.getByTestId('@settings/policy-save').click();
  await actAs(page, DEMO_ADMIN);
  await confirmPolicy(desk);
  const groups = [[{ group: 'finance', count: 1 }, { group: 'leads', count: 1 }]];
  let policy = (await desk.value('policies/list', {})).find((candidate) => candidate.currency === 'eth.usdt');
  expect(policy?.thresholds.at(-1)).toEqual({ above: '1000', approvals: 2, groups });
  expect(policy?.approvalValidHours).toBe(24);
  await page.reload();
  await go(page, 'settings');
  await expect(page.getByTestId('@settings/policy-approvals-eth.usdt')).toContainText('above 1000: 2, from 1 of finance + 1 of leads');
  await expect(page.getByTestId('@settings/policy-valid-hours-eth.usdt')).toHaveText('after 24 h');

  // Editing another field keeps the groups and the expiry.
  await page.getByRole('button', { name: 'Edit the USDT on Ethereum policy' }).click();
  await expect(editor.getByLabel(`Approval groups #${row} (empty for none)`)).toHaveValue('finance+leads');
  await expect(editor.getByLabel('Approvals expire after (hours, empty for never)')).toHaveValue('24');
  await expectAccessible(page, 'the policy editor with groups and expiry');
  await saveScreenshot(page, 'settings-policy-editor-groups');
  await editor.getByLabel('Daily limit (empty for none)').fill('5000');
  await editor.getByTestId('@settings/policy-save').click();
  await actAs(page, DEMO_ADMIN);
  await confirmPolicy(desk);
  policy = (await desk.value('policies/list', {})).find((candidate) => candidate.currency === 'eth.usdt');
  expect(policy?.dailyLimit).toBe('5000');
  expect(policy?.thresholds.at(-1)).toEqual({ above: '1000', approvals: 2, groups });
  expect(policy?.approvalValidHours).toBe(24);
});

test('the Operators screen lists the approval groups, proposes one and a second admin confirms it', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'operators');
  const section = page.getByTestId('@operators/groups');
  await expect(section.getByTestId('@operators/groups-empty')).toBeVisible();
  const form = section.getByTestId('@operators/group-form');
  await form.getByLabel('Group name').fill('Finance!');
  await form.getByTestId('@operators/group-propose').click();
  await expect(form.getByTestId('@operators/group-name-error')).toContainText('lower-case letters, digits and dashes');
  await expect(page.getByTestId('@operator-dialog')).toBeHidden();

  await form.getByLabel('Group name').fill('finance');
  await form.getByLabel(DEMO_APPROVER.operator, { exact: true }).check();
  await form.getByLabel(DEMO_ADMIN_2.operator, { exact: true }).check();
  await form.getByTestId('@operators/group-propose').click();
  await actAs(page, DEMO_ADMIN);
  await expect(section.getByTestId('@operators/group-status')).toContainText('waits for confirmation by another admin');
  await expect(section.getByTestId('@operators/groups-pending')).toContainText('finance');
  expect((await desk.value('operators/groups', {})).groups).toEqual([]);
  await expectAccessible(page, 'operators with a group change waiting');

  const proposal = page.locator('[data-testid="@operators/proposal"][data-kind="group"]');
  await expect(proposal).toContainText('Approval group change');
  await proposal.getByTestId('@operators/confirm-button').click();
  await actAs(page, DEMO_ADMIN_2);
  const group = section.locator('[data-testid="@operators/group"][data-name="finance"]');
  await expect(group.getByTestId('@operators/group-members')).toHaveText([DEMO_APPROVER.operator, DEMO_ADMIN_2.operator].sort().join(', '));
  await expect(section.getByTestId('@operators/groups-pending')).toHaveCount(0);
  const inForce = await desk.value('operators/groups', {});
  expect(inForce.groups.map((entry) => ({ name: entry.name, members: [...entry.members].sort() }))).toEqual([{ name: 'finance', members: [DEMO_APPROVER.operator, DEMO_ADMIN_2.operator].sort() }]);
  await expectAccessible(page, 'operators with an approval group');
  await saveScreenshot(page, 'operators-approval-groups');
});
