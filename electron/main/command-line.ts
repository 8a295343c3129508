// What the app's own command line asks before any window exists: `--version` (or -V, as the CLI) prints the version
// and exits, before the single-instance lock (which would hand the request to a running desk and focus it instead);
// `--no-sandbox` is refused: the desk holds the merchant's keys and never runs without Chromium's sandbox (on Ubuntu
// 24.04 and later the .deb's AppArmor profile, or the one docs/release.md gives for the AppImage, lets it start).
export type AppLaunch = { readonly kind: 'version' } | { readonly kind: 'run' } | { readonly kind: 'unsandboxed'; readonly message: string };

/** What the person is told when the app is started with `--no-sandbox` (it then exits with status 1). */
export const NO_SANDBOX_REFUSAL =
  'Treasury Desk does not run without its sandbox (--no-sandbox was given): it holds the merchant\'s keys. Start it without --no-sandbox. ' +
  'If it then does not start on Ubuntu 24.04 or later, install the .deb or .rpm package (it installs an AppArmor profile), ' +
  'or for the AppImage install the profile docs/release.md gives ("Ubuntu 24.04 and the sandbox").';

/**
 * Reads Electron's argv (the executable, maybe the app folder, then switches); nothing after `--` is a switch.
 * `noSandboxSwitch`: whether Chromium's command line has `no-sandbox` by any other way (app.commandLine.hasSwitch).
 */
export function appLaunchOf(argv: readonly string[], noSandboxSwitch = false): AppLaunch {
  const end = argv.indexOf('--');
  const switches = end === -1 ? argv.slice(1) : argv.slice(1, end);
  if (switches.some((arg) => arg === '--version' || arg === '-V')) return { kind: 'version' };
  if (noSandboxSwitch || switches.some((arg) => arg === '--no-sandbox' || arg.startsWith('--no-sandbox='))) return { kind: 'unsandboxed', message: NO_SANDBOX_REFUSAL };
  return { kind: 'run' };
}

/** `Electron 45.4.1, Chromium 142.0.0.0, Node 22.20.0` from process.versions. */
export function runtimeText(versions: Readonly<Record<string, string | undefined>>): string {
  return `Electron ${versions['electron'] ?? '?'}, Chromium ${versions['chrome'] ?? '?'}, Node ${versions['node'] ?? '?'}`;
}

/** `Treasury Desk 0.1.0 (Electron 45.4.1, Chromium 142.0.0.0, Node 22.20.0)` and a newline. */
export function versionText(appName: string, version: string, versions: Readonly<Record<string, string | undefined>>): string {
  return `${appName} ${version} (${runtimeText(versions)})\n`;
}
