// Contract IPC in the main process: one handler per method, sender-frame checks, parse errors, crashing handlers and
// event broadcast, against a fake ipcMain; every answer is a Result, none carries a secret.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IpcMain, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, METHOD_NAMES, ok, WINDOW_METHOD_NAMES, WINDOW_PATH_FIELDS, type ContractEvent, type Result, type TreasuryHandlers, type WindowHandlers } from '../../../electron/contract';
import { deferredHandlers, startFailureMessage, unavailableHandlers } from '../../../electron/main/deferred-handlers';
import { broadcastEvent, isTrustedSender, registerContractIpc, type SenderPolicy } from '../../../electron/main/ipc';
import type { TrustedRenderer } from '../../../electron/main/security';
import { WindowRegistry, type RegisteredWindow } from '../../../electron/main/windows';
import { childFrame, FakeIpcMain, FakeWebContents, mainFrame, type FakeFrame } from './electron-fakes';
import { assertNoSecrets, findSecretLikeContent } from './secret-scan';

const rendererRoot = resolve(import.meta.dirname, '../../../out/renderer');
const trusted: TrustedRenderer = { fileRoot: rendererRoot, devOrigin: null };
const ourPage = pathToFileURL(join(rendererRoot, 'index.html')).href;

const SESSION = { locked: true, operator: null, lockTimeoutSeconds: 300, profile: null, isDemo: false } as const;

/** Handlers answering ok(method name), with spies to see what reached the engine (or the desktop). */
function echoHandlers(): { handlers: WindowHandlers; calls: Array<{ method: string; request: unknown }> } {
  const calls: Array<{ method: string; request: unknown }> = [];
  const entries = WINDOW_METHOD_NAMES.map((method) => [
    method,
    async (request: unknown): Promise<Result<unknown>> => {
      calls.push({ method, request });
      return method === 'session/state' ? ok(SESSION) : ok({ method });
    },
  ]);
  return { handlers: Object.fromEntries(entries) as unknown as WindowHandlers, calls };
}

let ipcMain: FakeIpcMain;
let ownContents: FakeWebContents;
let policy: SenderPolicy;

function event(frame: FakeFrame | null, sender: FakeWebContents = ownContents) {
  return { sender, senderFrame: frame };
}

function wire(handlers: WindowHandlers): void {
  registerContractIpc(ipcMain as unknown as IpcMain, handlers, policy, { inspectResult: assertNoSecrets });
}

beforeEach(() => {
  ipcMain = new FakeIpcMain();
  ownContents = new FakeWebContents();
  policy = { trusted, isOwnWebContents: (contents) => contents.id === ownContents.id };
});

describe('registerContractIpc', () => {
  it('registers one handler per contract method (engine and desktop), named after it, and removes them all', () => {
    const unregister = registerContractIpc(ipcMain as unknown as IpcMain, echoHandlers().handlers, policy);
    expect(ipcMain.handlers.size).toBe(WINDOW_METHOD_NAMES.length);
    expect(WINDOW_METHOD_NAMES.length).toBeGreaterThan(METHOD_NAMES.length);
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...WINDOW_METHOD_NAMES].sort());
    expect(ipcMain.handlers.has('deposits/list')).toBe(true);
    expect(ipcMain.handlers.has('desktop/exportDepositsCsv')).toBe(true);
    expect(ipcMain.handlers.has(EVENT_CHANNEL)).toBe(false);
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('answers a call from our window with the engine result', async () => {
    const { handlers, calls } = echoHandlers();
    wire(handlers);
    expect(await ipcMain.invoke('session/state', event(mainFrame(ourPage)), {})).toEqual(ok(SESSION));
    expect(await ipcMain.invoke('deposits/list', event(mainFrame(`${ourPage}#/deposits`)), { limit: 50 })).toEqual(
      ok({ method: 'deposits/list' }),
    );
    expect(calls).toEqual([
      { method: 'session/state', request: {} },
      { method: 'deposits/list', request: { limit: 50 } },
    ]);
  });

  it.each([
    ['a page from another origin', () => event(mainFrame('https://evil.example/'))],
    ['a local file outside the app', () => event(mainFrame('file:///tmp/evil.html'))],
    ['an iframe inside our page', () => event(childFrame(ourPage, ourPage))],
    ['a destroyed frame', () => event(null)],
    ['a web contents we did not create', () => event(mainFrame(ourPage), new FakeWebContents())],
  ])('refuses %s as forbidden without reaching the engine', async (_name, makeEvent) => {
    const { handlers, calls } = echoHandlers();
    wire(handlers);
    const answer = (await ipcMain.invoke('withdrawals/approve', makeEvent(), { id: 'w1' })) as Result<unknown>;
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error.code).toBe('forbidden');
    expect(calls).toEqual([]);
  });

  it.each(Object.entries(WINDOW_PATH_FIELDS))('refuses a window that names a file in %s, whatever the path, pointing to the dialog method', async (method, rule) => {
    const { handlers, calls } = echoHandlers();
    wire(handlers);
    for (const path of ['/home/someone/.bashrc', 'relative.csv', '']) {
      const answer = (await ipcMain.invoke(method, event(mainFrame(ourPage)), { [rule.field]: path })) as Result<unknown>;
      if (answer.ok) throw new Error(`${method} accepted a path from the window`);
      expect(answer.error.code).toBe('forbidden');
      expect(answer.error.message).toContain(rule.instead);
    }
    expect(calls).toEqual([]);
  });

  it('lets a window verify the audit log without a checkpoint file, and call the dialog methods', async () => {
    const { handlers, calls } = echoHandlers();
    wire(handlers);
    expect(await ipcMain.invoke('audit/verify', event(mainFrame(ourPage)), {})).toEqual(ok({ method: 'audit/verify' }));
    expect(await ipcMain.invoke('desktop/exportDepositsCsv', event(mainFrame(ourPage)), { currency: 'trx.usdt' })).toEqual(ok({ method: 'desktop/exportDepositsCsv' }));
    expect(calls.map((call) => call.method)).toEqual(['audit/verify', 'desktop/exportDepositsCsv']);
  });

  it('answers a bad payload as invalidInput with field messages', async () => {
    const { handlers, calls } = echoHandlers();
    wire(handlers);
    const answer = (await ipcMain.invoke('deposits/list', event(mainFrame(ourPage)), { limit: 'all', extra: 1 })) as Result<unknown>;
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('invalidInput');
    expect(Object.keys(answer.error.fields ?? {})).toContain('limit');
    expect(calls).toEqual([]);
  });

  it('answers more than one argument as invalidInput', async () => {
    const { handlers, calls } = echoHandlers();
    wire(handlers);
    const answer = (await ipcMain.invoke('session/state', event(mainFrame(ourPage)), {}, { sneaky: true })) as Result<unknown>;
    expect(!answer.ok && answer.error.code).toBe('invalidInput');
    expect(calls).toEqual([]);
  });

  it('answers a throwing or rejecting handler as internal, without its message', async () => {
    const { handlers } = echoHandlers();
    wire({
      ...handlers,
      'balances/list': () => {
        throw new TypeError('secret detail: merchant key abc');
      },
      'currencies/list': async () => Promise.reject(new Error('secret detail')),
    });
    for (const method of ['balances/list', 'currencies/list']) {
      const answer = (await ipcMain.invoke(method, event(mainFrame(ourPage)), {})) as Result<unknown>;
      expect(answer.ok, method).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code).toBe('internal');
      expect(answer.error.message).not.toContain('secret detail');
    }
  });

  it('answers a malformed engine answer as internal', async () => {
    const { handlers } = echoHandlers();
    wire({ ...handlers, 'audit/verify': async () => 'yes' as unknown as Result<never> });
    const answer = (await ipcMain.invoke('audit/verify', event(mainFrame(ourPage)), {})) as Result<unknown>;
    expect(!answer.ok && answer.error.code).toBe('internal');
  });

  it('refuses to pass on a secret-looking answer when the test-only inspector is wired', async () => {
    const { handlers } = echoHandlers();
    const leaky = { ...handlers, 'profiles/list': async () => ok([{ name: 'main', merchantPrivateKey: 'x' }]) };
    wire(leaky as unknown as WindowHandlers);
    const answer = (await ipcMain.invoke('profiles/list', event(mainFrame(ourPage)), {})) as Result<unknown>;
    expect(!answer.ok && answer.error.code).toBe('internal');
    expect(JSON.stringify(answer)).not.toContain('merchantPrivateKey');
  });
});

describe('isTrustedSender', () => {
  it('needs all three: our web contents, the main frame, our page', () => {
    expect(isTrustedSender(event(mainFrame(ourPage)) as never, policy)).toBe(true);
    expect(isTrustedSender(event(mainFrame('https://evil.example/')) as never, policy)).toBe(false);
    expect(isTrustedSender(event(childFrame(ourPage, ourPage)) as never, policy)).toBe(false);
    expect(isTrustedSender(event(mainFrame(ourPage), new FakeWebContents()) as never, policy)).toBe(false);
  });
});

describe('the secret scan itself', () => {
  it('finds private keys and credential fields, and passes public data', () => {
    expect(findSecretLikeContent({ rows: [{ publicKeyPem: '-----BEGIN PUBLIC KEY-----\nAAA' }] })).toBeNull();
    expect(findSecretLikeContent({ a: ['-----BEGIN RSA PRIVATE KEY-----'] })).toBe('$.a[0]');
    expect(findSecretLikeContent({ profile: { secret: 'x' } })).toBe('$.profile.secret');
    expect(findSecretLikeContent(ok({ fingerprint: 'ab:cd' }))).toBeNull();
    const formErrors = { ok: false, error: { code: 'invalidInput', message: 'm', fields: { passphrase: 'enter the passphrase' } } };
    expect(findSecretLikeContent(formErrors)).toBeNull();
    expect(findSecretLikeContent({ ok: false, error: { code: 'x', message: 'm', fields: { a: '-----BEGIN PRIVATE KEY-----' } } })).toBe('$.error.fields');
  });
});

describe('deferred and unavailable handlers', () => {
  it('forwards to the engine once it has started', async () => {
    const { handlers, calls } = echoHandlers();
    let start: (value: TreasuryHandlers) => void = () => undefined;
    const deferred = deferredHandlers(new Promise<TreasuryHandlers>((resolve) => (start = resolve)));
    const pending = deferred['session/state']({});
    start(handlers);
    expect(await pending).toEqual(ok(SESSION));
    expect(calls).toEqual([{ method: 'session/state', request: {} }]);
  });

  it('answers every method with the reason when the engine did not start', async () => {
    const deferred = deferredHandlers(Promise.reject(new Error('engine not wired yet\nstack line')));
    wire({ ...echoHandlers().handlers, ...deferred });
    for (const method of METHOD_NAMES) {
      const answer = (await ipcMain.invoke(method, event(mainFrame(ourPage)), undefined)) as Result<unknown>;
      if (answer.ok) throw new Error(`${method} answered ok`);
      // Requests that need fields fail their schema first; the rest reach the unavailable engine.
      expect(['internal', 'invalidInput'], method).toContain(answer.error.code);
      if (answer.error.code === 'internal') expect(answer.error.message).toBe(`${method}: engine not wired yet`);
    }
    expect(Object.keys(unavailableHandlers('x')).sort()).toEqual([...METHOD_NAMES].sort());
    expect(startFailureMessage('plain')).toBe('plain');
    expect(startFailureMessage(new Error(''))).toBe('the treasury engine did not start.');
    expect(startFailureMessage(new Error('x'.repeat(400)))).toHaveLength(301);
  });
});

describe('broadcastEvent', () => {
  const change: ContractEvent = { type: 'withdrawals/changed', id: 'w1' };

  function window(url: string, destroyed = false) {
    const contents = new FakeWebContents();
    contents.url = url;
    return { isDestroyed: () => destroyed, webContents: contents };
  }

  it('sends the event to live windows showing our pages only', () => {
    const ours = window(ourPage);
    const navigatedAway = window('https://evil.example/');
    const closed = window(ourPage, true);
    expect(broadcastEvent([ours, navigatedAway, closed], change, trusted)).toBe(1);
    expect(ours.webContents.sent).toEqual([{ channel: EVENT_CHANNEL, payload: change }]);
    expect(navigatedAway.webContents.sent).toEqual([]);
    expect(closed.webContents.sent).toEqual([]);
  });

  it('never throws when a window fails mid-send', () => {
    const broken = window(ourPage);
    broken.webContents.send = vi.fn(() => {
      throw new Error('Object has been destroyed');
    });
    const ours = window(ourPage);
    expect(broadcastEvent([broken, ours], change, trusted)).toBe(1);
    expect(ours.webContents.sent).toHaveLength(1);
  });
});

describe('WindowRegistry', () => {
  it('owns the web contents of registered windows until they close', () => {
    const registry = new WindowRegistry<RegisteredWindow>();
    const contents = new FakeWebContents();
    let onClosed: () => void = () => undefined;
    const window = { isDestroyed: () => false, once: (_event: 'closed', listener: () => void) => (onClosed = listener), webContents: contents as unknown as WebContents };
    registry.add(window);
    expect(registry.owns(contents)).toBe(true);
    expect(registry.owns(new FakeWebContents())).toBe(false);
    expect(registry.first()).toBe(window);
    onClosed();
    expect(registry.owns(contents)).toBe(false);
    expect(registry.all()).toEqual([]);
  });
});
