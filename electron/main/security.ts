// Electron hardening for Treasury Desk: window preferences, the Content-Security-Policy, navigation / window-open /
// webview / permission denial and the block-explorer allow-list for external links. Pure functions plus installers
// that take Electron objects as parameters (unit-tested with stubs). Invariant: a renderer can neither leave the
// app's own pages, open windows, gain a permission, nor reach the network; only allow-listed https explorer links
// leave the app, and they go to the OS browser.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App, Session, Shell, WebContents, WebPreferences } from 'electron';
import { EXPLORERS } from '../chains';

// ---- the window -------------------------------------------------------------------------------------------------

/** The webPreferences of every Treasury Desk window: sandboxed, isolated, no Node, no webviews, no insecure content. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  if (!isAbsolute(preloadPath)) throw new Error('The preload path must be absolute.');
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    // Middle-click (auxclick) would otherwise start a navigation the page did not ask for.
    disableBlinkFeatures: 'Auxclick',
    spellcheck: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

// ---- the Content-Security-Policy ---------------------------------------------------------------------------------

/**
 * The renderer's CSP, one directive per entry. No inline or eval script; no network at all from the renderer
 * (`connect-src 'none'`: every request goes through the main process); `data:` images only for QR PNGs.
 * renderer/index.html carries the same string in its meta tag (a unit test compares them): the meta covers
 * file:// pages, which have no HTTP headers; the header covers the dev server.
 */
export const CSP_DIRECTIVES: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self'"],
  ['img-src', "'self' data:"],
  ['connect-src', "'none'"],
  ['frame-src', "'none'"],
  ['worker-src', "'none'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"],
];

export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.map(([name, value]) => `${name} ${value}`).join('; ');

/** Sets our CSP on every response of `session`, replacing any policy the response carried. */
export function installContentSecurityPolicy(session: Pick<Session, 'webRequest'>, policy: string = CONTENT_SECURITY_POLICY): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [policy];
    callback({ responseHeaders: headers });
  });
}

// ---- which pages are ours ----------------------------------------------------------------------------------------

/** Where the app's own pages come from: the built renderer folder (file://) and, in development only, the dev server. */
export interface TrustedRenderer {
  /** Absolute path of out/renderer: any file:// URL inside it is ours. */
  readonly fileRoot: string;
  /** The dev server's origin (e.g. http://localhost:5173) when running `electron-vite dev`, otherwise null. */
  readonly devOrigin: string | null;
}

/** Normalizes a dev-server URL to its origin; null for anything that is not a local http(s) URL. */
export function devServerOrigin(url: string | undefined): string | null {
  if (url === undefined || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (!['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) return null;
  return parsed.origin;
}

/** True when `url` is one of the app's own pages: a file inside the renderer folder, or the dev server's origin. */
export function isTrustedRendererUrl(url: string, trusted: TrustedRenderer): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'file:') {
    if (parsed.host !== '') return false; // file://server/share/... is somebody else's file
    let path: string;
    try {
      path = fileURLToPath(parsed);
    } catch {
      return false;
    }
    const inside = relative(resolve(trusted.fileRoot), resolve(path));
    return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside);
  }
  if (trusted.devOrigin !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
    return parsed.origin === trusted.devOrigin;
  }
  return false;
}

// ---- external links ----------------------------------------------------------------------------------------------

/** Block explorers an operator may open from the app (txids, addresses); an exact host or any subdomain of one. */
export const EXPLORER_HOSTS: readonly string[] = Object.freeze(Object.values(EXPLORERS).flatMap((explorer) => explorer.hosts));

const MAX_EXTERNAL_URL_LENGTH = 2048;

/**
 * The normalized URL when `url` is an https link to an allow-listed explorer, otherwise null. Checked with the WHATWG
 * URL parser: https only, no credentials, default port only, hostname (lower-cased, IDN as punycode) equal to an
 * allow-listed host or ending in "." + one.
 */
export function allowedExplorerUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_EXTERNAL_URL_LENGTH) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.port !== '') return null;
  const host = parsed.hostname;
  const allowed = EXPLORER_HOSTS.some((explorer) => host === explorer || host.endsWith(`.${explorer}`));
  return allowed ? parsed.href : null;
}

/** Opens `url` in the OS browser only when it is an allow-listed explorer link; answers whether it was opened. */
export async function openExternalSafely(url: unknown, opener: Pick<Shell, 'openExternal'>): Promise<boolean> {
  const href = allowedExplorerUrl(url);
  if (href === null) return false;
  try {
    await opener.openExternal(href, { activate: true });
    return true;
  } catch {
    return false;
  }
}

// ---- per-web-contents hardening ----------------------------------------------------------------------------------

type HardenableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Denies every navigation, redirect and frame navigation that leaves the app's own pages, every webview, and every
 * window.open (allow-listed explorer links are handed to the OS browser instead).
 */
export function hardenWebContents(contents: HardenableContents, trusted: TrustedRenderer, opener: Pick<Shell, 'openExternal'>): void {
  contents.on('will-navigate', (event) => {
    if (!isTrustedRendererUrl(event.url, trusted)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isTrustedRendererUrl(event.url, trusted)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isTrustedRendererUrl(event.url, trusted)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event, webPreferences) => {
    // webviewTag is false everywhere; should one appear anyway, it gets no preload and no Node, and is refused.
    delete webPreferences.preload;
    webPreferences.nodeIntegration = false;
    webPreferences.contextIsolation = true;
    event.preventDefault();
  });
  contents.setWindowOpenHandler((details) => {
    void openExternalSafely(details.url, opener);
    return { action: 'deny' };
  });
}

/** Denies every permission request, permission check and device permission on `session`. */
export function denyAllPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** Hardens every web contents the app ever creates (windows, and anything a bug might create later). */
export function installWebContentsHardening(app: Pick<App, 'on'>, trusted: TrustedRenderer, opener: Pick<Shell, 'openExternal'>): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, trusted, opener));
}

/** Everything session-wide: the CSP header and the permission denials. */
export function hardenSession(
  session: Pick<Session, 'webRequest' | 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>,
): void {
  installContentSecurityPolicy(session);
  denyAllPermissions(session);
}
