// E2E: operators you can prove (issue 9) — a fresh merchant profile founded by two admins at the desk; an invitation
// whose one-time code is shown once, accepted by the invited operator with their own passphrase and confirmed by a
// second, independent admin who compares the key's fingerprint; a policy change waiting for the other admin; role
// change, re-key, one's own new passphrase, a lockout after wrong passphrases and disabling, on the Operators screen.
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

const FINGERPRINT = /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/;

function row(page: Page, name: string): Locator {
  return page.locator(`[data-testid="@operators/row"][data-name="${name}"]`);
}

function proposal(page: Page, kind: string, subject: string): Locator {
  return page.locator(`[data-testid="@operators/proposal"][data-kind="${kind}"][data-subject="${subject}"]`);
}

/** Types one founding admin's name and passphrase (twice) into the founding step. */
async function typeFounder(page: Page, name: string, passphrase: string): Promise<void> {
  await page.getByTestId('@founding/name').fill(name);
  await page.getByTestId('@founding/passphrase').fill(passphrase);
  await page.getByTestId('@founding/confirm').fill(passphrase);
}

/** "I have an invitation": name, code and a new passphrase twice. */
async function acceptInvitation(page: Page, name: string, code: string, passphrase: string): Promise<void> {
  const form = page.getByTestId('@operators/accept');
  await form.getByTestId('@operators/accept-name').fill(name);
  await form.getByTestId('@operators/accept-code').fill(code);
  await form.getByTestId('@operators/accept-passphrase').fill(passphrase);
  await form.getByTestId('@operators/accept-confirm').fill(passphrase);
  await form.getByTestId('@operators/accept-button').click();
}

/** The one-time code on screen, then "I handed it over", after which it is gone. */
async function takeCode(page: Page): Promise<string> {
  const code = (await page.getByTestId('@operators/invitation-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{1,4})+$/);
  await page.getByTestId('@operators/invitation-done').click();
  await expect(page.getByTestId('@operators/invitation')).toHaveCount(0);
  await expect(page.getByText(code)).toHaveCount(0);
  return code;
}

test('a fresh profile asks to be founded, and two admins found it, each with their own passphrase', async ({ page, desk }) => {
  const sandbox = await desk.startSandbox();
  await page.goto(desk.url);
  await page.getByTestId('@onboarding/connect-button').click();
  await page.getByTestId('@profiles/import-name').fill('main');
  desk.harness.desktop.answerNextOpenDialog(sandbox.credentialsPath);
  await page.getByTestId('@profiles/import-button').click();
  await expect(page.getByTestId('@onboarding/selfcheck')).toBeVisible();
  await page.getByTestId('@onboarding/continue').click();

  // Not founded: the founding step, which says why two founders give four-eyes from the start.
  const founding = page.getByTestId('@founding');
  await expect(founding).toBeVisible();
  expect((await desk.value('operators/list', {})).founded).toBe(false);
  await expect(page.getByTestId('@founding/why-two')).toContainText('independent');
  await expect(page.getByTestId('@founding/why-two')).toContainText('cannot give four-eyes');
  await expect(page.getByTestId('@founding/admin-1')).toBeVisible();
  await expectAccessible(page, 'founding: first admin');
  await saveScreenshot(page, 'founding-first-admin');

  // The first admin types theirs; a mistyped second entry is caught before anything is sent.
  await typeFounder(page, 'alice', 'alice passphrase 1');
  await page.getByTestId('@founding/confirm').fill('alice passphrase 2');
  await page.getByTestId('@founding/next').click();
  await expect(founding).toContainText('The two passphrases differ.');
  await page.getByTestId('@founding/confirm').fill('alice passphrase 1');
  await page.getByTestId('@founding/next').click();

  // Then the second admin, in turn, on an empty form.
  await expect(page.getByTestId('@founding/admin-2')).toBeVisible();
  await expect(page.getByTestId('@founding/name')).toHaveValue('');
  await expect(page.getByTestId('@founding/passphrase')).toHaveValue('');
  await expect(founding).toContainText('alice has typed theirs');
  await typeFounder(page, 'bob', 'bob passphrase 22');
  await expectAccessible(page, 'founding: second admin');
  await saveScreenshot(page, 'founding-second-admin');
  await page.getByTestId('@founding/found').click();
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  await expect(page.getByTestId('@banner/not-founded')).toHaveCount(0);

  const roster = await desk.value('operators/list', {});
  expect(roster.founded).toBe(true);
  expect(roster.fourEyes).toBe(true);
  await go(page, 'operators');
  await expect(page.getByTestId('@operators/notice')).toHaveAttribute('data-four-eyes', 'true');
  await expect(page.getByTestId('@operators/notice')).toContainText('two independent admins');
  for (const name of ['alice', 'bob']) {
    await expect(row(page, name)).toHaveAttribute('data-status', 'active');
    await expect(row(page, name)).toContainText('founder');
    await expect(row(page, name).getByTestId('@operators/row-role')).toHaveText('Administrator');
    await expect(row(page, name).getByTestId('@operators/row-key')).toHaveText(FINGERPRINT);
  }
  await expectAccessible(page, 'operators of a desk founded by two admins');
  await saveScreenshot(page, 'operators-founded-by-two');

  // Each founder unlocks with their own passphrase.
  await page.getByTestId('@shell/lock-button').click();
  await page.getByTestId('@lock/operator').fill('bob');
  await page.getByTestId('@lock/passphrase').fill('bob passphrase 22');
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByText('Operator: bob')).toBeVisible();
});

test('an invited operator accepts with their own passphrase and a second admin confirms their key', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'operators');
  await expect(page.getByTestId('@operators/notice')).toHaveAttribute('data-four-eyes', 'true');
  for (const name of ['demo-admin', 'demo-admin-2', 'demo-approver']) await expect(row(page, name)).toHaveAttribute('data-status', 'active');
  await expect(page.getByTestId('@operators/proposals-empty')).toBeVisible();

  // demo-admin invites carol: the one-time code is shown once, with what to do with it.
  await page.getByTestId('@operators/invite-name').fill('carol');
  await page.getByTestId('@operators/invite-role').selectOption('initiator');
  await page.getByTestId('@operators/invite-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@operators/invitation')).toBeVisible();
  await expect(page.getByTestId('@operators/invitation-message')).toContainText('Give carol this code in person');
  await expect(page.getByTestId('@operators/invitation-message')).toContainText('another admin');
  await expectAccessible(page, 'operators with an invitation code');
  await saveScreenshot(page, 'operators-invitation-code');
  const code = await takeCode(page);

  await expect(row(page, 'carol')).toHaveAttribute('data-status', 'invited');
  const invitation = proposal(page, 'enrol', 'carol');
  await expect(invitation).toContainText('invite carol as initiator');
  await expect(invitation.getByTestId('@operators/proposal-key')).toContainText('Waiting for carol to accept');
  await expect(invitation.getByTestId('@operators/confirm-button')).toBeDisabled();

  // carol, at the desk: a wrong code is refused; the right one makes her key under her own passphrase.
  await acceptInvitation(page, 'carol', 'AAAA-BBBB-CCCC-D', 'carol passphrase 7');
  await expect(page.getByTestId('@operators/accept-error')).toContainText('invitation code is not right');
  await acceptInvitation(page, 'carol', code, 'carol passphrase 7');
  const accepted = page.getByTestId('@operators/accepted');
  await expect(accepted).toBeVisible();
  await expect(accepted).toContainText('An admin still has to confirm it');
  const key = (await page.getByTestId('@operators/accepted-key').textContent()) ?? '';
  expect(key).toMatch(FINGERPRINT);
  await expect(invitation.getByTestId('@operators/proposal-key')).toContainText(key);
  await expectAccessible(page, 'operators after the invitation was accepted');
  await saveScreenshot(page, 'operators-invitation-accepted');

  // The admin who invited her is not independent of himself; demo-admin-2 is, and compares the key's fingerprint.
  await invitation.getByTestId('@operators/confirm-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(key);
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'forbidden');
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('not independent');
  await expectAccessible(page, 'confirming an accepted key');
  await saveScreenshot(page, 'operators-confirm-key');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN_2.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN_2.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();

  await expect(row(page, 'carol')).toHaveAttribute('data-status', 'active');
  await expect(row(page, 'carol').getByTestId('@operators/row-key')).toHaveText(key);
  await expect(page.getByTestId('@operators/accepted-state')).toContainText('in force now');
  await expect(page.getByTestId('@operators/proposals-empty')).toBeVisible();
  const carol = (await desk.value('operators/list', {})).operators.find((operator) => operator.name === 'carol');
  expect(carol?.status).toBe('active');
  expect(carol?.keyFingerprint).toBe(key);
  expect(carol?.party).toEqual(['carol']);

  // carol now unlocks the desk with the passphrase only she typed.
  await page.getByTestId('@shell/lock-button').click();
  await page.getByTestId('@lock/operator').fill('carol');
  await page.getByTestId('@lock/passphrase').fill('carol passphrase 7');
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByText('Operator: carol')).toBeVisible();
});

test('with two independent admins a policy change waits for the other admin', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'settings');
  await page.getByRole('button', { name: 'Edit the USDT on TRON policy' }).click();
  await page.getByLabel('Daily limit (empty for none)').fill('5000');
  await page.getByTestId('@settings/policy-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@settings/policy-status')).toContainText('waiting for confirmation by another admin');
  await expect(page.getByTestId('@settings/policy-pending')).toContainText('proposed by demo-admin');
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.dailyLimit ?? null).toBeNull();
  await expectAccessible(page, 'settings with a policy change waiting');
  await saveScreenshot(page, 'settings-policy-waiting');

  await go(page, 'operators');
  const change = proposal(page, 'policy', 'trx.usdt');
  await expect(change).toContainText('Waiting for confirmation');
  await change.getByTestId('@operators/confirm-button').click();
  await actAs(page, DEMO_ADMIN_2);
  await expect(page.getByTestId('@operators/proposals-status')).toContainText('Confirmed');
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.dailyLimit).toMatch(/^5000(\.0+)?$/);
  await go(page, 'settings');
  await expect(page.getByTestId('@settings/policy-pending')).toHaveCount(0);
});

test('role change, re-key, a new passphrase of one\'s own, a lockout and disabling', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'operators');
  const approver = row(page, 'demo-approver');
  const oldKey = (await approver.getByTestId('@operators/row-key').textContent()) ?? '';

  // A role change is proposed by one admin and confirmed by the other.
  await approver.getByTestId('@operators/role-button').click();
  await page.getByTestId('@operators/role-select').selectOption('initiator');
  await page.getByTestId('@operators/role-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@operators/roster-status')).toContainText('waits for confirmation by another admin');
  await proposal(page, 'role', 'demo-approver').getByTestId('@operators/confirm-button').click();
  await actAs(page, DEMO_ADMIN_2);
  await expect(approver.getByTestId('@operators/row-role')).toHaveText('Initiator');

  // Their own new passphrase: the key stays the same.
  const own = page.getByTestId('@operators/change-passphrase');
  await own.getByTestId('@operators/own-name').fill(DEMO_APPROVER.operator);
  await own.getByTestId('@operators/own-passphrase').fill(DEMO_APPROVER.passphrase);
  await own.getByTestId('@operators/own-new').fill('approver passphrase 9');
  await own.getByTestId('@operators/own-confirm').fill('approver passphrase 9');
  await own.getByTestId('@operators/own-button').click();
  await expect(own.getByTestId('@operators/own-status')).toContainText('your passphrase is changed');
  await expect(approver.getByTestId('@operators/row-key')).toHaveText(oldKey);

  // Re-key (a lost passphrase): a code, accepted with a new passphrase, the new key confirmed by the other admin.
  await approver.getByTestId('@operators/rekey-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@operators/invitation')).toContainText('New-key code for demo-approver');
  const code = await takeCode(page);
  await acceptInvitation(page, 'demo-approver', code, 'approver passphrase 10');
  const newKey = (await page.getByTestId('@operators/accepted-key').textContent()) ?? '';
  expect(newKey).toMatch(FINGERPRINT);
  expect(newKey).not.toBe(oldKey);
  await proposal(page, 'rekey', 'demo-approver').getByTestId('@operators/confirm-button').click();
  await expect(page.getByTestId('@operator-dialog/fingerprint')).toHaveText(newKey);
  await actAs(page, DEMO_ADMIN_2);
  await expect(approver.getByTestId('@operators/row-key')).toHaveText(newKey);

  // Wrong passphrases: after five, the operator is locked out for a while, and the lock screen says until when.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await expect(desk.value('session/unlock', { operator: 'demo-approver', passphrase: 'not the passphrase' })).rejects.toThrow(/wrongPassphrase/);
  }
  await expect(approver.getByTestId('@operators/row-locked')).toContainText('locked out');
  await approver.scrollIntoViewIfNeeded();
  await expectAccessible(page, 'operators with a locked-out operator');
  await saveScreenshot(page, 'operators-locked-out');
  await page.getByTestId('@shell/lock-button').click();
  await page.getByTestId('@lock/operator').fill('demo-approver');
  await page.getByTestId('@lock/passphrase').fill('approver passphrase 10');
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByTestId('@lock/error')).toHaveAttribute('data-code', 'lockedOut');
  await expect(page.getByTestId('@lock/error')).toContainText('next attempt is possible at');
  await saveScreenshot(page, 'lock-screen-locked-out');
  await page.getByTestId('@lock/operator').fill(DEMO_ADMIN.operator);
  await page.getByTestId('@lock/passphrase').fill(DEMO_ADMIN.passphrase);
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByTestId('@screen/operators')).toBeVisible();

  // Disabling is proposed and confirmed like any roster change.
  await approver.getByTestId('@operators/disable-button').click();
  await actAs(page, DEMO_ADMIN);
  await proposal(page, 'disable', 'demo-approver').getByTestId('@operators/confirm-button').click();
  await actAs(page, DEMO_ADMIN_2);
  await expect(approver).toHaveAttribute('data-status', 'disabled');
});

test('an invited operator accepts on the lock screen, without anyone unlocking the desk for them', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'operators');
  await page.getByTestId('@operators/invite-name').fill('dave');
  await page.getByTestId('@operators/invite-role').selectOption('approver');
  await page.getByTestId('@operators/invite-button').click();
  await actAs(page, DEMO_ADMIN);
  const code = await takeCode(page);

  await page.getByTestId('@shell/lock-button').click();
  const invitation = page.getByTestId('@lock/invitation');
  await invitation.locator('summary').click();
  await invitation.getByTestId('@operators/accept-name').fill('dave');
  await invitation.getByTestId('@operators/accept-code').fill(code);
  await invitation.getByTestId('@operators/accept-passphrase').fill('dave passphrase 8');
  await invitation.getByTestId('@operators/accept-confirm').fill('dave passphrase 8');
  await invitation.getByTestId('@operators/accept-button').click();
  await expect(invitation.getByTestId('@operators/accepted')).toBeVisible();
  await expectAccessible(page, 'lock screen after accepting an invitation');
  await saveScreenshot(page, 'lock-screen-invitation-accepted');
  // Still locked: accepting proves who dave is, it unlocks nothing.
  expect((await desk.value('session/state', {})).locked).toBe(true);

  await page.getByTestId('@lock/operator').fill(DEMO_ADMIN_2.operator);
  await page.getByTestId('@lock/passphrase').fill(DEMO_ADMIN_2.passphrase);
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByTestId('@lock')).toBeHidden();
  const roster = await desk.value('operators/list', {});
  const waiting = roster.proposals.find((entry) => entry.kind === 'enrol' && entry.subject === 'dave');
  expect(waiting?.acceptedKey).toMatch(FINGERPRINT);
  await go(page, 'operators');
  await proposal(page, 'enrol', 'dave').getByTestId('@operators/confirm-button').click();
  await actAs(page, DEMO_ADMIN_2);
  await expect(row(page, 'dave')).toHaveAttribute('data-status', 'active');
  await expect(row(page, 'dave').getByTestId('@operators/row-key')).toHaveText(waiting?.acceptedKey ?? '');
});
