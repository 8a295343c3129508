// The preload: window.treasury exposes exactly `call` and `onEvent`, never ipcRenderer; unknown methods are refused
// locally; events reach listeners as the payload only; the method list equals the contract's.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, ok, WINDOW_METHOD_NAMES, type ContractEvent, type TreasuryBridge } from '../../../electron/contract';
import { PRELOAD_METHOD_NAMES } from '../../../electron/preload/method-names';

const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const ipcRenderer = {
    invoke: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: null })),
    on: vi.fn((channel: string, listener: (...args: unknown[]) => void) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return ipcRenderer;
    }),
    removeListener: vi.fn((channel: string, listener: (...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    }),
    send: vi.fn(),
    sendSync: vi.fn(),
  };
  const exposed = new Map<string, unknown>();
  const contextBridge = {
    exposeInMainWorld: vi.fn((key: string, api: unknown) => {
      exposed.set(key, api);
    }),
  };
  /** Delivers an IPC message as Electron would: (IpcRendererEvent, payload). */
  const emit = (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: ipcRenderer, senderId: 0, ports: [] }, payload);
  };
  return { ipcRenderer, contextBridge, exposed, listeners, emit };
});

vi.mock('electron', () => ({ ipcRenderer: electron.ipcRenderer, contextBridge: electron.contextBridge }));

let treasury: TreasuryBridge;
/** How often the preload called exposeInMainWorld while it loaded (vitest clears mock history before each test). */
let exposeCalls = 0;

beforeAll(async () => {
  await import('../../../electron/preload/index');
  treasury = electron.exposed.get('treasury') as TreasuryBridge;
  exposeCalls = electron.contextBridge.exposeInMainWorld.mock.calls.length;
});

beforeEach(() => {
  electron.ipcRenderer.invoke.mockClear();
});

describe('window.treasury', () => {
  it('is exposed once, as "treasury", with exactly call and onEvent', () => {
    expect(exposeCalls).toBe(1);
    expect([...electron.exposed.keys()]).toEqual(['treasury']);
    expect(Object.keys(treasury).sort()).toEqual(['call', 'onEvent']);
    expect(typeof treasury.call).toBe('function');
    expect(typeof treasury.onEvent).toBe('function');
    expect(Object.isFrozen(treasury)).toBe(true);
  });

  it('never exposes ipcRenderer or any of its functions', () => {
    const values = Object.values(treasury) as unknown[];
    const ipcParts = [electron.ipcRenderer, ...Object.values(electron.ipcRenderer)];
    for (const value of values) expect(ipcParts).not.toContain(value);
    for (const exposed of electron.exposed.values()) expect(exposed).not.toBe(electron.ipcRenderer);
  });

  it('invokes a known method on its own channel with the request', async () => {
    electron.ipcRenderer.invoke.mockResolvedValueOnce(ok({ rows: [], nextCursor: null }));
    const answer = await treasury.call('deposits/list', { limit: 10 });
    expect(answer).toEqual(ok({ rows: [], nextCursor: null }));
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('deposits/list', { limit: 10 });
  });

  it.each(['deposits/delete', 'treasury/event', '__proto__', 'constructor', 'toString', '', 42, null])(
    'refuses the unknown method %s locally',
    async (method) => {
      const answer = await (treasury.call as (method: unknown, request: unknown) => Promise<unknown>)(method, {});
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
      expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
    },
  );

  it('answers a failed delivery as internal instead of rejecting', async () => {
    electron.ipcRenderer.invoke.mockRejectedValueOnce(new Error('An object could not be cloned.'));
    const answer = await treasury.call('session/state', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('gives listeners the event payload only, and unsubscribes', () => {
    const received: unknown[][] = [];
    const unsubscribe = treasury.onEvent((...args: unknown[]) => received.push(args));
    expect(electron.ipcRenderer.on).toHaveBeenCalledWith(EVENT_CHANNEL, expect.any(Function));
    const event: ContractEvent = { type: 'deposits/changed', newDeposits: 2 };
    electron.emit(EVENT_CHANNEL, event);
    expect(received).toEqual([[event]]);
    unsubscribe();
    unsubscribe();
    electron.emit(EVENT_CHANNEL, event);
    expect(received).toHaveLength(1);
    expect(electron.listeners.get(EVENT_CHANNEL)?.size ?? 0).toBe(0);
  });

  it('drops malformed events and keeps delivering after a listener throws, which it reports to main', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const received: unknown[] = [];
    const offThrowing = treasury.onEvent(() => {
      throw new Error('listener bug');
    });
    const offGood = treasury.onEvent((event) => received.push(event));
    electron.emit(EVENT_CHANNEL, 'not an event');
    electron.emit(EVENT_CHANNEL, { type: 'balances/changed' });
    expect(received).toEqual([{ type: 'balances/changed' }]);
    expect(error).toHaveBeenCalledTimes(1);
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('desktop/reportError', {
      kind: 'error',
      message: 'an event listener for balances/changed failed: Error: listener bug',
      stack: expect.stringContaining('listener bug'),
    });
    offThrowing();
    offGood();
    error.mockRestore();
  });

  it('refuses a listener that is not a function', () => {
    expect(() => treasury.onEvent('x' as unknown as () => void)).toThrow(TypeError);
  });
});

describe('the preload method list', () => {
  it('equals the contract, without duplicates', () => {
    expect(new Set(PRELOAD_METHOD_NAMES).size).toBe(PRELOAD_METHOD_NAMES.length);
    expect([...PRELOAD_METHOD_NAMES].sort()).toEqual([...WINDOW_METHOD_NAMES].sort());
  });

  it('keeps the preload free of zod and of any module but electron (sandboxed preloads cannot require them)', () => {
    const sources = ['electron/preload/index.ts', 'electron/preload/bridge.ts', 'electron/preload/method-names.ts'];
    for (const file of sources) {
      const text = readFileSync(resolve(import.meta.dirname, '../../..', file), 'utf8');
      const runtimeImports = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)].map((match) => match[1]);
      for (const specifier of runtimeImports) {
        expect(['electron', './bridge', './method-names', '../contract/events', '../contract/limits', '../contract/result'], `${file}: ${specifier}`).toContain(specifier);
      }
    }
  });
});
