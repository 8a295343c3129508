// E2E: a team desk in the app. Two harnesses (two workstations, each its own engine, data folder and keychain) share
// one PostgreSQL (scripts/with-postgres.sh). The first is a demo desk moved into the team database; the second, a fresh
// data folder without merchant credentials, joins from Onboarding's "Join a team desk" (refusals of a wrong URL, a
// wrong database password and an unreachable database shown under the form, nothing joined) and lands on the desk
// with the joined profile once the desk's genesis fingerprint it shows matches the first's. The second page's approvals
// queue shows a request made at the first within a second, without a reload, and both Settings show the team desk as
// connected with the same genesis fingerprint; the laptop's admin device key is confirmed in the first workstation's
// Operators screen (which enrols the laptop); every page passes the accessibility checks.
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { TEAM_SCHEMA } from '../../electron/core/team/pg-migrations';
import { makeScratchFolder } from '../harness/scratch-folder';
import { test, expect, openHarnessDesk } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible } from './support/page-checks';

function databaseUrl(): string {
  const url = process.env['TREASURY_DESK_DATABASE_URL'];
  if (url === undefined) throw new Error('the team e2e test needs a throwaway PostgreSQL: run it through scripts/with-postgres.sh');
  return url;
}

/** The database owner's URL (migrations at team init, and dropping the schema between runs). */
function ownerDatabaseUrl(): string {
  const url = process.env['TREASURY_DESK_OWNER_DATABASE_URL'];
  if (url === undefined) throw new Error('the team e2e test needs a throwaway PostgreSQL: run it through scripts/with-postgres.sh');
  return url;
}

/**
 * Fills Onboarding's join form and asks for the desk's genesis. With `genesis` (the fingerprint the first workstation
 * shows), checks the form shows the same one, confirms it, and has DEMO_ADMIN enrol the workstation in the operator dialog.
 */
async function joinFromOnboarding(page: Page, database: string, genesis?: string): Promise<void> {
  await page.getByTestId('@onboarding/team-database').fill(database);
  await page.getByTestId('@onboarding/team-workstation').fill('laptop');
  await page.getByTestId('@onboarding/team-join').click();
  if (genesis === undefined) return;
  await expect(page.getByTestId('@onboarding/team-genesis')).toHaveText(genesis);
  await page.getByTestId('@onboarding/team-join').click();
  await actAs(page, DEMO_ADMIN);
}

/** The URL with another password, or another port (both kept otherwise). */
function changedUrl(url: string, change: { password?: string; port?: string }): string {
  const parsed = new URL(url);
  if (change.password !== undefined) parsed.password = change.password;
  if (change.port !== undefined) parsed.port = change.port;
  return parsed.toString();
}

/** Unlocks the desk as `operator` when the page shows the lock screen. */
async function unlockIfLocked(page: Page, operator: { operator: string; passphrase: string }): Promise<void> {
  const lock = page.getByTestId('@lock/operator');
  if (!(await lock.isVisible())) return;
  await lock.fill(operator.operator);
  await page.getByTestId('@lock/passphrase').fill(operator.passphrase);
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByText(`Operator: ${operator.operator}`)).toBeVisible();
}

test('the second workstation’s approvals queue updates live when the first makes a request', async ({ page, desk, browser }) => {
  const url = databaseUrl();
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: ownerDatabaseUrl() });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
  await admin.end();

  await startDemo(page, desk.url);
  await desk.value('team/init', { database: url, ownerDatabase: ownerDatabaseUrl(), workstation: 'front-office', as: DEMO_ADMIN });

  const dataDir = makeScratchFolder('treasury-e2e-second-');
  const second = await openHarnessDesk(dataDir, { demoAuto: false, autoSync: false });
  const context = await browser.newContext();
  try {
    const page2 = await context.newPage();
    await page2.goto(second.desk.url);
    await page2.getByTestId('@onboarding/join-button').click();
    await expect(page2.getByTestId('@onboarding/join')).toBeVisible();
    await expectAccessible(page2, 'onboarding join form');

    const formError = page2.getByTestId('@onboarding/team-error');
    await joinFromOnboarding(page2, 'postgres//nowhere');
    await expect(formError).toContainText('give postgres://ROLE:PASSWORD@HOST:PORT/DATABASE');
    await joinFromOnboarding(page2, changedUrl(url, { password: 'not-the-password' }));
    await expect(formError).toContainText('password authentication failed');
    await expect(formError).not.toContainText('not-the-password');
    await joinFromOnboarding(page2, changedUrl(url, { port: '1' }));
    await expect(formError).toHaveAttribute('data-code', 'offline');
    await expectAccessible(page2, 'onboarding join form with an error');
    expect(await second.desk.value('team/status', {})).toMatchObject({ enabled: false });
    expect(await second.desk.value('profiles/list', {})).toEqual([]);

    const genesis = (await desk.value('team/status', {})).genesis?.fingerprint ?? 'no genesis';
    await joinFromOnboarding(page2, url, genesis);
    // No private key comes through the team database: the admin's device key made at the laptop is confirmed at the
    // first workstation (which enrols the laptop), and the approver gets a key at the laptop, confirmed with theirs.
    const confirmAtFirst = async (proposal: string, as: { operator: string; passphrase: string }): Promise<void> => {
      await expect.poll(async () => (await desk.value('operators/list', {})).pendingDevices.some((device) => device.id === proposal)).toBe(true);
      await desk.value('operators/confirmDevice', { proposal, as });
    };
    const adminDevice = (await second.desk.value('operators/list', {})).pendingDevices.find((device) => device.operator === DEMO_ADMIN.operator);
    expect(adminDevice).toBeDefined();
    // The admin's key is confirmed in the first workstation's app: Operators lists it, Confirm asks who acts.
    await go(page, 'operators');
    const waiting = page.getByTestId('@operators/device').and(page.locator(`[data-id="${adminDevice?.id ?? ''}"]`));
    await expect(waiting).toHaveAttribute('data-workstation', 'laptop');
    await expectAccessible(page, 'operators with a device key waiting');
    await waiting.getByTestId('@operators/device-confirm-button').click();
    await actAs(page, DEMO_ADMIN);
    await expect(page.getByTestId('@operators/devices-status')).toContainText(`Confirmed: ${DEMO_ADMIN.operator}'s key at laptop.`);
    await confirmAtFirst((await second.desk.value('operators/addDevice', DEMO_APPROVER)).id, DEMO_APPROVER);
    await expect.poll(async () => (await second.desk.value('team/status', {})).enrolment).toBeNull();
    await expect(page2.getByTestId('@lock/operator').or(page2.getByTestId('@shell/profile'))).toBeVisible();
    await unlockIfLocked(page2, DEMO_APPROVER);
    await expect(page2.getByTestId('@shell/profile')).toContainText('demo');
    expect(await second.desk.value('team/status', {})).toMatchObject({ enabled: true, workstation: 'laptop' });
    await go(page2, 'withdrawals');
    const queue = page2.getByTestId('@withdrawals/queue-item');
    const before = await queue.count();

    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '23', toAddress: `0x${randomBytes(20).toString('hex')}`, as: DEMO_ADMIN });
    const made = Date.now();
    await expect(queue).toHaveCount(before + 1, { timeout: 1_000 });
    console.log(`team e2e: the request reached the second page's queue ${Date.now() - made} ms after it was made at the first`);
    await expect(page2.getByTestId('@withdrawals/queue-fingerprint').filter({ hasText: withdrawal.fingerprint ?? 'none' })).toHaveCount(1);
    await expectAccessible(page2, 'withdrawals on the second workstation');

    await go(page2, 'settings');
    await expect(page2.getByTestId('@settings/team-connection')).toContainText('Connected');
    await expect(page2.getByTestId('@settings/team-genesis')).toHaveText(genesis);
    await expectAccessible(page2, 'settings with a team desk');
    await go(page, 'settings');
    await expect(page.getByTestId('@settings/team-connection')).toContainText('Connected');
    await expect(page.getByTestId('@settings/team-genesis')).toHaveText(genesis);
    // The whole team chain verified again on request, as `team verify` does.
    await page.getByTestId('@settings/team-verify').click();
    await expect(page.getByTestId('@settings/team-verified')).toBeVisible();
    const rows = (await desk.value('team/status', {})).verifiedSeq;
    expect(rows).toBeGreaterThan(0);
    await expect(page.getByTestId('@settings/team-verified')).toContainText(`${rows} rows, every statement holds under the pinned trust roots`);
    await expectAccessible(page, 'settings on the first workstation');
  } finally {
    await context.close();
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
