// Hardening of the Electron shell: window preferences, the CSP (header = meta), navigation / window.open / webview /
// permission denial, and the block-explorer allow-list for external links, against small Electron fakes.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { App, Session, Shell, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import {
  allowedExplorerUrl,
  CONTENT_SECURITY_POLICY,
  denyAllPermissions,
  devServerOrigin,
  EXPLORER_HOSTS,
  hardenSession,
  hardenWebContents,
  installContentSecurityPolicy,
  installWebContentsHardening,
  isTrustedRendererUrl,
  openExternalSafely,
  secureWebPreferences,
  type TrustedRenderer,
} from '../../../electron/main/security';
import { FakeApp, FakeSession, FakeWebContents, fakeShell } from './electron-fakes';

const repoRoot = resolve(import.meta.dirname, '../../..');
const rendererRoot = resolve(repoRoot, 'out/renderer');
const built: TrustedRenderer = { fileRoot: rendererRoot, devOrigin: null };
const dev: TrustedRenderer = { fileRoot: rendererRoot, devOrigin: 'http://localhost:5173' };
const ourPage = pathToFileURL(join(rendererRoot, 'index.html')).href;

describe('window preferences', () => {
  const preload = resolve(repoRoot, 'out/preload/index.cjs');

  it('sets every hardening flag', () => {
    const preferences = secureWebPreferences(preload);
    expect(preferences).toMatchObject({
      preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(preferences).not.toHaveProperty('enableBlinkFeatures');
  });

  it('refuses a relative preload path', () => {
    expect(() => secureWebPreferences('out/preload/index.cjs')).toThrow(/absolute/);
  });
});

describe('Content-Security-Policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')] as const;
    }),
  );

  it('allows no inline or eval script and no network from the renderer', () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-hashes');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/\*|https?:|wss?:|blob:/);
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'none'");
    expect(directives.get('img-src')).toBe("'self' data:");
    for (const name of ['object-src', 'base-uri', 'form-action', 'frame-ancestors', 'frame-src', 'worker-src']) {
      expect(directives.get(name), name).toBe("'none'");
    }
  });

  it('is exactly the meta policy of renderer/index.html', () => {
    const html = readFileSync(join(repoRoot, 'renderer/index.html'), 'utf8');
    const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/gi)];
    expect(metas).toHaveLength(1);
    expect(metas[0]?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });

  it('is set as the response header, replacing any policy the response carried', () => {
    const session = new FakeSession();
    installContentSecurityPolicy(session as unknown as Session);
    let answer: unknown;
    session.headersListener?.(
      { responseHeaders: { 'content-type': ['text/html'], 'content-security-policy': ["default-src *"] } },
      (response) => (answer = response),
    );
    expect(answer).toEqual({
      responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    session.headersListener?.({}, (response) => (answer = response));
    expect(answer).toEqual({ responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
});

describe('which pages are ours', () => {
  it('trusts files inside the built renderer folder only', () => {
    expect(isTrustedRendererUrl(ourPage, built)).toBe(true);
    expect(isTrustedRendererUrl(`${ourPage}#/withdrawals`, built)).toBe(true);
    expect(isTrustedRendererUrl(pathToFileURL(join(rendererRoot, 'assets/index.js')).href, built)).toBe(true);
    expect(isTrustedRendererUrl(pathToFileURL(join(repoRoot, 'out/main/index.js')).href, built)).toBe(false);
    expect(isTrustedRendererUrl(pathToFileURL(`${rendererRoot}-evil/index.html`).href, built)).toBe(false);
    expect(isTrustedRendererUrl(`${pathToFileURL(rendererRoot).href}/../main/index.js`, built)).toBe(false);
    expect(isTrustedRendererUrl(`${pathToFileURL(rendererRoot).href}/%2e%2e/main/index.js`, built)).toBe(false);
    expect(isTrustedRendererUrl(pathToFileURL(rendererRoot).href, built)).toBe(false);
    expect(isTrustedRendererUrl('file:///etc/passwd', built)).toBe(false);
    expect(isTrustedRendererUrl(`file://fileserver${rendererRoot}/index.html`, built)).toBe(false);
  });

  it('trusts the dev server origin only in development', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5173/', built)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isTrustedRendererUrl('https://localhost:5173/', dev)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost.evil.com:5173/', dev)).toBe(false);
    expect(isTrustedRendererUrl('not a url', dev)).toBe(false);
    expect(isTrustedRendererUrl('about:blank', dev)).toBe(false);
  });

  it('accepts only a local http(s) dev server URL', () => {
    expect(devServerOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(devServerOrigin('http://127.0.0.1:5173/index.html')).toBe('http://127.0.0.1:5173');
    expect(devServerOrigin('https://example.com/')).toBeNull();
    expect(devServerOrigin('file:///tmp/index.html')).toBeNull();
    expect(devServerOrigin('')).toBeNull();
    expect(devServerOrigin(undefined)).toBeNull();
    expect(devServerOrigin('::')).toBeNull();
  });
});

describe('web contents hardening', () => {
  function hardened(trusted: TrustedRenderer = built) {
    const contents = new FakeWebContents();
    const shell = fakeShell();
    hardenWebContents(contents as unknown as WebContents, trusted, shell as unknown as Shell);
    return { contents, shell };
  }

  it('denies navigation and redirects to other origins and allows our own pages', () => {
    const { contents } = hardened();
    for (const eventName of ['will-navigate', 'will-redirect', 'will-frame-navigate'] as const) {
      expect(contents.navigate(eventName, 'https://evil.example/'), eventName).toBe(true);
      expect(contents.navigate(eventName, 'https://etherscan.io/'), eventName).toBe(true);
      expect(contents.navigate(eventName, 'file:///etc/passwd'), eventName).toBe(true);
      expect(contents.navigate(eventName, 'javascript:alert(1)'), eventName).toBe(true);
      expect(contents.navigate(eventName, 'http://localhost:5173/'), eventName).toBe(true);
      expect(contents.navigate(eventName, ourPage), eventName).toBe(false);
    }
  });

  it('allows the dev server in development', () => {
    const { contents } = hardened(dev);
    expect(contents.navigate('will-navigate', 'http://localhost:5173/')).toBe(false);
    expect(contents.navigate('will-navigate', 'http://localhost:8080/')).toBe(true);
  });

  it('refuses every webview and strips its preload', () => {
    const { contents } = hardened();
    const preferences: Record<string, unknown> = { preload: '/tmp/evil.js', nodeIntegration: true, contextIsolation: false };
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) }, preferences, { src: ourPage });
    expect(prevented).toBe(true);
    expect(preferences).toEqual({ nodeIntegration: false, contextIsolation: true });
  });

  it('denies every window.open and hands only allow-listed explorer links to the OS browser', async () => {
    const { contents, shell } = hardened();
    const open = (url: string) => contents.windowOpenHandler?.({ url, frameName: '', features: '', disposition: 'new-window' });
    expect(open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(open(ourPage)).toEqual({ action: 'deny' });
    expect(open('https://tronscan.org/#/transaction/abc')).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith('https://tronscan.org/#/transaction/abc', { activate: true });
  });

  it('is installed on every web contents the app creates', () => {
    const app = new FakeApp();
    installWebContentsHardening(app as unknown as App, built, fakeShell() as unknown as Shell);
    const contents = new FakeWebContents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.windowOpenHandler).not.toBeNull();
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
  });
});

describe('permissions', () => {
  it('denies every permission request, check and device', () => {
    const session = new FakeSession();
    denyAllPermissions(session as unknown as Session);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown']) {
      const answers: boolean[] = [];
      session.permissionRequestHandler?.({}, permission, (granted) => answers.push(granted), {});
      expect(answers, permission).toEqual([false]);
      expect(session.permissionCheckHandler?.({}, permission, 'file://', {}), permission).toBe(false);
    }
    expect(session.devicePermissionHandler?.({ deviceType: 'usb' })).toBe(false);
  });

  it('hardenSession installs the CSP header and the denials together', () => {
    const session = new FakeSession();
    hardenSession(session as unknown as Session);
    expect(session.headersListener).not.toBeNull();
    expect(session.permissionRequestHandler).not.toBeNull();
    expect(session.permissionCheckHandler).not.toBeNull();
    expect(session.devicePermissionHandler).not.toBeNull();
  });
});

describe('external links', () => {
  it('allows https links to each explorer and its subdomains', () => {
    for (const host of EXPLORER_HOSTS) {
      expect(allowedExplorerUrl(`https://${host}/tx/0xabc`), host).toBe(`https://${host}/tx/0xabc`);
      expect(allowedExplorerUrl(`https://www.${host}/address/T9yD`), host).toBe(`https://www.${host}/address/T9yD`);
    }
    expect(allowedExplorerUrl('https://testnet.tonviewer.com/EQabc')).toBe('https://testnet.tonviewer.com/EQabc');
    expect(allowedExplorerUrl('HTTPS://EtherScan.IO/tx/1')).toBe('https://etherscan.io/tx/1');
    expect(allowedExplorerUrl('https://etherscan.io:443/tx/1')).toBe('https://etherscan.io/tx/1');
  });

  it.each([
    ['a lookalike suffix', 'https://etherscan.io.evil.com/tx/1'],
    ['a lookalike prefix', 'https://evil-etherscan.io/tx/1'],
    ['a lookalike without the dot', 'https://notetherscan.io/tx/1'],
    ['credentials', 'https://user:pw@etherscan.io/tx/1'],
    ['a user name only', 'https://user@etherscan.io/tx/1'],
    ['plain http', 'http://etherscan.io/tx/1'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: with the host in it', 'javascript://etherscan.io/%0Aalert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['a non-default port', 'https://etherscan.io:8443/tx/1'],
    ['an IDN lookalike (Cyrillic a)', 'https://ethersc\u0430n.io/tx/1'],
    ['an IDN lookalike (Cyrillic o)', 'https://s\u043elscan.io/tx/1'],
    ['punycode of a lookalike', 'https://xn--ethersn-8nf.io/tx/1'],
    ['a trailing dot', 'https://etherscan.io./tx/1'],
    ['the host in the path', 'https://evil.com/etherscan.io'],
    ['the host in the fragment', 'https://evil.com#etherscan.io'],
    ['the host in the query', 'https://evil.com/?u=https://etherscan.io'],
    ['a backslash trick', 'https://evil.com\\@etherscan.io/'],
    ['an encoded dot', 'https://etherscan%2eio.evil.com/'],
    ['a bare parent domain', 'https://solana.com/'],
    ['an IP address', 'https://93.184.216.34/'],
    ['not a URL', 'etherscan.io/tx/1'],
    ['an empty string', ''],
  ])('refuses %s', (_name, url) => {
    expect(allowedExplorerUrl(url)).toBeNull();
  });

  it('refuses non-strings and very long URLs', () => {
    expect(allowedExplorerUrl(undefined)).toBeNull();
    expect(allowedExplorerUrl({ href: 'https://etherscan.io/' })).toBeNull();
    expect(allowedExplorerUrl(`https://etherscan.io/${'a'.repeat(3000)}`)).toBeNull();
  });

  it('openExternalSafely opens only allowed links, with the normalized URL, and never throws', async () => {
    const shell = fakeShell();
    expect(await openExternalSafely('https://etherscan.io.evil.com/', shell as unknown as Shell)).toBe(false);
    expect(await openExternalSafely('javascript:alert(1)', shell as unknown as Shell)).toBe(false);
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(await openExternalSafely('https://BscScan.com/tx/1', shell as unknown as Shell)).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://bscscan.com/tx/1', { activate: true });
    shell.openExternal.mockRejectedValueOnce(new Error('no browser'));
    expect(await openExternalSafely('https://solscan.io/tx/1', shell as unknown as Shell)).toBe(false);
  });
});
