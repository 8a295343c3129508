// `npm run dev:browser -- [--port P] [--data DIR] [--build]`: the renderer in any browser against the real engine
// (test harness only, never shipped). Builds out/renderer when stale, starts the engine on a data folder (a fresh
// temporary one unless --data), serves the page on 127.0.0.1 and prints its URL; Ctrl+C stops everything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureRendererBuilt } from './build';
import { startHarnessEngine } from './engine';
import { DEMO_LIVE_DEPOSITS } from '../../electron/sandbox';
import { startHarness } from './server';

const USAGE = 'usage: npm run dev:browser -- [--port P] [--data DIR] [--build] [--demo-time-scale N]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '5173' },
      data: { type: 'string' },
      build: { type: 'boolean', default: false },
      'demo-time-scale': { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number.parseInt(values.port, 10);
  const timeScale = Number(values['demo-time-scale']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0 to 65535, not ${values.port}\n${USAGE}`);
  if (!(timeScale > 0)) throw new Error(`--demo-time-scale must be a positive number\n${USAGE}`);

  const rendererDir = await ensureRendererBuilt({ force: values.build });
  const temporary = values.data === undefined;
  const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'treasury-desk-browser-')) : resolve(values.data ?? '');
  const desk = await startHarnessEngine({ dataDir, demoTimeScale: timeScale, autoSync: true, demoLiveDeposits: DEMO_LIVE_DEPOSITS });
  for (const warning of desk.engine.warnings) console.warn(`warning: ${warning}`);
  const server = await startHarness({ engine: desk.engine, desktop: desk.desktopHandlers, shellEvents: { onEvent: (listener) => desk.desktop.onWindowEvent(listener) }, rendererDir, port });
  console.log(`Treasury Desk (browser harness) at ${server.url}`);
  console.log(`data folder: ${dataDir}${temporary ? ' (temporary, removed on exit)' : ''}`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await desk.close();
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(`dev:browser: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
