// E2E in the real Electron app (issue 24 part 6), where Electron's binary is installed: the built app starts with its
// sandbox and hardened window, the demo desk opens, an approver approves through the approve dialog, the save dialog
// and printToPDF go through main (a statement PDF is written), and the app quits cleanly. Everything else runs over
// the harness's stand-in for main. Where the binary is missing (this project's CI: only the npm registry is reachable)
// or the user is root (Chromium's sandbox cannot run as root, and the app refuses --no-sandbox) the spec is skipped,
// saying why. A release engineer runs it as a normal user (docs/release.md, "The Electron end-to-end spec"):
//   node node_modules/electron/install.js && npm run build && bash scripts/with-keyring.sh npx playwright test electron-app
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { encodeTronAddress } from '../../electron/chains';
import { actAs, DEMO_ADMIN, DEMO_APPROVER } from './support/flows';

// This spec drives the app, not the harness desk (support/desk.ts, whose fixture shoots a failing test's pages).
test.use({ screenshot: 'only-on-failure' });

const root = resolve(import.meta.dirname, '../..');
const electronInstalled = existsSync(join(root, 'node_modules/electron/path.txt')) && existsSync(join(root, 'node_modules/electron/dist'));
const asRoot = process.getuid?.() === 0;

test.describe('the Electron app itself', () => {
  test.skip(!electronInstalled, "Electron's binary is not installed here (node_modules/electron/dist): its download needs github.com or ELECTRON_MIRROR. Run `node node_modules/electron/install.js` (npm start does it) and this spec runs.");
  test.skip(electronInstalled && asRoot, 'running as root: Chromium refuses its sandbox to root and Treasury Desk refuses --no-sandbox; run this spec as a normal user.');
  test.skip(electronInstalled && !existsSync(join(root, 'out/main/index.js')), 'the app is not built: run `npm run build` first.');

  let app: ElectronApplication;
  let window: Page;
  let dataHome: string;

  test.beforeAll(async () => {
    dataHome = mkdtempSync(join(tmpdir(), 'td-electron-e2e-'));
    app = await electron.launch({ args: [root], env: { ...process.env, XDG_DATA_HOME: dataHome } as Record<string, string> });
    window = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
    rmSync(dataHome, { recursive: true, force: true });
  });

  test('starts sandboxed with the hardened window: the page sees only window.treasury', async () => {
    // app.enableSandbox() ran and no switch turned it off (the app refuses --no-sandbox itself: command-line.test.ts).
    expect(await app.evaluate(({ app: electronApp }) => electronApp.commandLine.hasSwitch('no-sandbox'))).toBe(false);
    expect(await window.evaluate(() => ({ require: typeof (globalThis as { require?: unknown }).require, bridge: Object.keys((globalThis as unknown as { treasury: object }).treasury).sort() }))).toEqual({
      require: 'undefined',
      bridge: ['call', 'onEvent'],
    });
  });

  test('opens the demo desk, and an approver approves through the approve dialog', async () => {
    await window.getByTestId('@onboarding/demo-button').click();
    await expect(window.getByTestId('@onboarding/selfcheck')).toBeVisible({ timeout: 60_000 });
    await window.getByTestId('@selfcheck/run-button').click();
    await expect(window.getByTestId('@selfcheck/result')).toHaveText(/Selfcheck passed/);
    await window.getByTestId('@onboarding/continue').click();
    await expect(window.getByTestId('@screen/dashboard')).toBeVisible();
    // The request is made through the window's bridge, as the form would; the approval through the dialog.
    const toAddress = encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)]));
    const requested = await window.evaluate(
      async ({ as, to }) => (globalThis as unknown as { treasury: { call: (method: string, request: unknown) => Promise<{ ok: boolean; value?: { withdrawal: { id: string } } }> } }).treasury.call('withdrawals/request', { currency: 'trx.usdt', amount: '12.5', toAddress: to, memo: 'electron e2e', as }),
      { as: DEMO_ADMIN, to: toAddress },
    );
    expect(requested.ok).toBe(true);
    await window.getByTestId('@nav/withdrawals').click();
    const queued = window.locator(`[data-testid="@withdrawals/queue-item"][data-id="${requested.value?.withdrawal.id ?? ''}"]`);
    await queued.getByTestId('@withdrawals/approve-button').click();
    await actAs(window, DEMO_APPROVER);
    await expect(queued).toHaveCount(0, { timeout: 30_000 });
  });

  test('writes a statement PDF through the save dialog and printToPDF in main', async () => {
    const pdf = join(dataHome, 'statement.pdf');
    await app.evaluate(({ dialog }, path) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath: path })) as typeof dialog.showSaveDialog;
    }, pdf);
    await window.getByTestId('@nav/reconciliation').click();
    const section = window.getByTestId('@statement/section');
    await section.getByTestId('@statement/build-button').click();
    await section.getByTestId('@statement/pdf-button').click();
    await expect(section.getByTestId('@statement/pdf-result')).toBeVisible({ timeout: 60_000 });
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
