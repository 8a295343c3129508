// E2E support: one fresh desk per test — the real engine on a temporary data folder and keychain service, the
// browser harness serving the built renderer, and (on demand) a separately started sandbox the test controls.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { callMethod, type MethodName, type RequestOf, type ResponseOf, type Result } from '../../../electron/contract';
import { startSandbox, type SandboxHandle, type StartSandboxOptions } from '../../../electron/sandbox';
import type { AutoSyncOptions } from '../../../electron/core/sync/auto-sync';
import { RENDERER_OUT_DIR } from '../../harness/build';
import { startHarnessEngine, type HarnessEngine } from '../../harness/engine';
import { makeScratchFolder } from '../../harness/scratch-folder';
import { startHarness, type HarnessServer } from '../../harness/server';

export interface Desk {
  readonly url: string;
  readonly dataDir: string;
  readonly harness: HarnessEngine;
  readonly server: HarnessServer;
  /** Calls the engine directly (test setup and checks), expecting success. */
  value<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ResponseOf<M>>;
  /** Calls the engine directly and returns its answer, a refusal included (a test of what the engine refuses). */
  call<M extends MethodName>(method: M, request: RequestOf<M>): Promise<Result<ResponseOf<M>>>;
  /** Starts a sandbox the test controls (stop it, change its merchant), with its credentials.json on disk. */
  startSandbox(options?: StartSandboxOptions): Promise<SandboxHandle>;
  /** The embedded demo sandbox started by demo/start. */
  demoSandbox(): SandboxHandle;
}

export interface DeskOptions {
  /** Whether the demo sandbox advances normal withdrawals by itself. Tests move them explicitly: off by default. */
  readonly demoAuto: boolean;
  /** Background sync as in the desktop app, with these timings; off (false) by default: tests sync when they mean to. */
  readonly autoSync: false | Partial<AutoSyncOptions>;
}

/**
 * One desk on its own: the real engine on `dataDir` with its own keychain service, the harness serving the built
 * renderer, and the sandboxes it starts. The fixture opens one per test; a test of several workstations opens more.
 */
export async function openHarnessDesk(dataDir: string, options: DeskOptions): Promise<{ desk: Desk; close(): Promise<void> }> {
  const harness = await startHarnessEngine({ dataDir: join(dataDir, 'desk'), demoAuto: options.demoAuto, autoSync: options.autoSync });
  const server = await startHarness({ engine: harness.engine, desktop: harness.desktopHandlers, shellEvents: { onEvent: (listener) => harness.desktop.onWindowEvent(listener) }, rendererDir: RENDERER_OUT_DIR });
  const sandboxes: SandboxHandle[] = [];
  const desk: Desk = {
    url: server.url,
    dataDir,
    harness,
    server,
    async value(method, request) {
      const result = await desk.call(method, request);
      if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
      return result.value;
    },
    async call(method, request) {
      return callMethod(harness.engine.handlers, method, request);
    },
    async startSandbox(sandboxOptions = {}) {
      const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: join(dataDir, `sandbox-${sandboxes.length + 1}`), ...sandboxOptions });
      sandboxes.push(sandbox);
      return sandbox;
    },
    demoSandbox() {
      const sandbox = harness.demoSandboxes.at(-1);
      if (sandbox === undefined) throw new Error('no demo sandbox was started (demo/start)');
      return sandbox;
    },
  };
  return {
    desk,
    async close() {
      await server.close();
      await harness.close();
      for (const sandbox of sandboxes) await sandbox.close().catch(() => undefined);
    },
  };
}

export const test = base.extend<DeskOptions & { desk: Desk; failureScreenshots: void }>({
  /**
   * When a test fails, a screenshot of every page still open, attached to its results (what Playwright's
   * `screenshot: 'only-on-failure'` leaves). Playwright's own mode also shoots every page of every context
   * as it closes, passing tests included, to keep the picture only on failure: 0.3-0.5 s of each test's teardown.
   */
  failureScreenshots: [
    async ({ context }, use, testInfo) => {
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      const pages = context.browser()?.contexts().flatMap((open) => open.pages()) ?? context.pages();
      for (const [index, page] of pages.entries()) {
        const path = testInfo.outputPath(`test-failed-${index + 1}.png`);
        try {
          await page.screenshot({ path, timeout: 5_000 });
          // as Playwright attaches its own: the file stays where it is, the report points at it
          testInfo.attachments.push({ name: 'screenshot', path, contentType: 'image/png' });
        } catch {
          // a page that closed or hangs has no picture to give; the failure itself is reported all the same
        }
      }
    },
    { auto: true },
  ],
  demoAuto: [false, { option: true }],
  autoSync: [false, { option: true }],
  desk: async ({ demoAuto, autoSync }, use) => {
    requireKeyring();
    const dataDir = makeScratchFolder('treasury-e2e-');
    const opened = await openHarnessDesk(dataDir, { demoAuto, autoSync });
    await use(opened.desk);
    await opened.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect };

function requireKeyring(): void {
  if (!process.env['TREASURY_KEYRING_HARNESS']) {
    throw new Error('the e2e tests use the real Secret Service: run them with `npm run test:e2e` (scripts/with-keyring.sh)');
  }
}
