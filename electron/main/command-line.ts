// What the app's own command line asks before any window exists: `--version` (or -V, as the CLI) prints the version
// and exits, before the single-instance lock (which would hand the request to a running desk and focus it instead).
export type AppLaunch = { readonly kind: 'version' } | { readonly kind: 'run' };

/** Reads Electron's argv (the executable, maybe the app folder, then switches); nothing after `--` is a switch. */
export function appLaunchOf(argv: readonly string[]): AppLaunch {
  const end = argv.indexOf('--');
  const switches = end === -1 ? argv.slice(1) : argv.slice(1, end);
  return switches.some((arg) => arg === '--version' || arg === '-V') ? { kind: 'version' } : { kind: 'run' };
}

/** `Electron 45.4.1, Chromium 142.0.0.0, Node 22.20.0` from process.versions. */
export function runtimeText(versions: Readonly<Record<string, string | undefined>>): string {
  return `Electron ${versions['electron'] ?? '?'}, Chromium ${versions['chrome'] ?? '?'}, Node ${versions['node'] ?? '?'}`;
}

/** `Treasury Desk 0.1.0 (Electron 45.4.1, Chromium 142.0.0.0, Node 22.20.0)` and a newline. */
export function versionText(appName: string, version: string, versions: Readonly<Record<string, string | undefined>>): string {
  return `${appName} ${version} (${runtimeText(versions)})\n`;
}
