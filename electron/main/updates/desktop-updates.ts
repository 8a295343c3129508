// The update channel of the packaged app: our check (release-check.ts) first, electron-updater (generic provider,
// autoDownload and autoInstallOnAppQuit off) only after it, and only for the very release we verified. Invariant: the
// window hears "ready" only when the signed metadata verified, our download matched its sha512, and electron-updater
// holds the same version and sha512; the app restarts only when the operator asks and no withdrawal is being sent.
import { createRequire } from 'node:module';
import type { AppUpdater } from 'electron-updater';
import { fail, ok, type ContractEvent, type Result } from '../../contract';
import type { UpdateReadyView } from '../../contract/desktop';
import type { Logger } from '../../core/log';
import type { DesktopUpdates } from '../desktop-handlers';
import { ReleaseUpdates, type SignedRelease } from './release-check';

/** Where releases are published, set by the release engineer (docs/desktop.md); null: this build checks for none. */
export const UPDATE_FEED_URL: string | null = null;
/** Overrides UPDATE_FEED_URL (a mirror inside the company's network, a staging feed). */
export const UPDATE_FEED_ENV = 'TREASURY_DESK_UPDATE_FEED';
const FIRST_CHECK_AFTER_MS = 60_000;
const CHECK_EVERY_MS = 6 * 60 * 60_000;

/** The metadata file electron-builder writes for a platform (generic provider). */
export function metadataFileFor(platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'latest.yml';
  if (platform === 'darwin') return 'latest-mac.yml';
  return 'latest-linux.yml';
}

export interface DesktopUpdateOptions {
  readonly feedUrl: string;
  readonly currentVersion: string;
  readonly platform: NodeJS.Platform;
  /** The data folder's update folder (our verified copy). */
  readonly downloadFolder: string;
  /** The engine's predicate (engine.sendInFlight), false until the engine has started. */
  readonly sendInFlight: () => boolean;
  readonly send: (event: ContractEvent) => void;
  readonly log: Logger;
}

/** electron-updater, loaded only when an update feed is configured (it needs Electron's app to be ready). */
function loadAutoUpdater(): AppUpdater {
  const require = createRequire(import.meta.url);
  return (require('electron-updater') as { readonly autoUpdater: AppUpdater }).autoUpdater;
}

/** Starts the update channel: checks now and then, downloads and prepares a verified release, and answers the window. */
export function startDesktopUpdates(options: DesktopUpdateOptions): DesktopUpdates & { stop(): void } {
  const { log } = options;
  const checker = new ReleaseUpdates({
    feedUrl: options.feedUrl,
    metadataFile: metadataFileFor(options.platform),
    currentVersion: options.currentVersion,
    downloadFolder: options.downloadFolder,
  });
  const updater = loadAutoUpdater();
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowDowngrade = false;
  updater.allowPrerelease = false;
  updater.setFeedURL({ provider: 'generic', url: options.feedUrl });
  let prepared: SignedRelease | null = null;

  /** electron-updater downloads the release we verified (same version, same sha512), or nothing. */
  async function prepare(release: SignedRelease): Promise<void> {
    const found = await updater.checkForUpdates();
    const info = found?.updateInfo;
    const sameFile = info?.files.some((file) => file.sha512 === release.sha512) === true;
    if (info === undefined || info.version !== release.version || !sameFile) {
      log.warn('updates: the feed changed between the signed check and the installer download; nothing installed', { verified: release.version, offered: info?.version ?? null });
      return;
    }
    await updater.downloadUpdate();
    prepared = release;
    options.send({ type: 'desktop/updateReady', update: { version: release.version, notes: release.notes } });
  }

  async function cycle(): Promise<void> {
    const checked = await checker.check();
    if (checked.lastError !== null) log.warn(`updates: ${checked.lastError}`);
    if (checked.state.phase === 'available') {
      const downloaded = await checker.download();
      if (downloaded.lastError !== null) log.warn(`updates: ${downloaded.lastError}`);
    }
    const state = checker.status().state;
    if (state.phase === 'ready' && prepared?.version !== state.release.version) await prepare(state.release);
  }

  const run = (): void => void cycle().catch((error: unknown) => log.error('updates: the update cycle failed unexpectedly', { error }));
  const first = setTimeout(run, FIRST_CHECK_AFTER_MS);
  const every = setInterval(run, CHECK_EVERY_MS);
  first.unref();
  every.unref();

  return {
    ready(): UpdateReadyView | null {
      return prepared === null ? null : { version: prepared.version, notes: prepared.notes };
    },
    restart(): Result<{ readonly restarting: true; readonly version: string }> {
      const decision = checker.decideApply(options.sendInFlight());
      if (!decision.allowed) return fail('conflict', decision.reason);
      if (prepared === null || prepared.version !== decision.release.version) return fail('conflict', 'the update is still being prepared: try again in a minute');
      log.info('updates: the operator restarts into the new version', { version: prepared.version });
      // Not silent (Windows shows its installer), and the app starts again afterwards.
      setImmediate(() => updater.quitAndInstall(false, true));
      return ok({ restarting: true, version: prepared.version });
    },
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
