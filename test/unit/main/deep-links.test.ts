// Main's treasury-desk:// handling (electron/main/deep-links.ts) over a stand-in app: the scheme registered (with the
// script in a checkout), the first launch's own link kept until the window loads, at most five links waiting, a second
// instance without a link only focusing, and a window closed to the tray making links wait again.
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ContractEvent } from '../../../electron/contract';
import { installDeepLinks, type DeepLinkApp } from '../../../electron/main/deep-links';

class LinkApp extends EventEmitter implements DeepLinkApp {
  readonly setAsDefaultProtocolClient = vi.fn((_protocol: string, _path?: string, _args?: string[]) => true);
}

const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), fatal: vi.fn() };

function setUp(argv: string[], defaultApp = false) {
  const app = new LinkApp();
  const sent: ContractEvent[] = [];
  const focus = vi.fn();
  const links = installDeepLinks({ app, send: (event) => sent.push(event), focus, log, argv, defaultApp, execPath: '/usr/bin/electron' });
  return { app, sent, focus, links };
}

const opened = (sent: ContractEvent[]): unknown[] => sent.map((event) => (event.type === 'desktop/openLink' && event.link.outcome === 'open' ? event.link.target : event));

describe('installDeepLinks', () => {
  it('registers the scheme, naming the script when started from a checkout', () => {
    expect(setUp(['/opt/treasury-desk']).app.setAsDefaultProtocolClient).toHaveBeenCalledWith('treasury-desk');
    expect(setUp(['/usr/bin/electron', 'out/main/index.js'], true).app.setAsDefaultProtocolClient).toHaveBeenCalledWith('treasury-desk', '/usr/bin/electron', [resolve('out/main/index.js')]);
  });

  it("keeps the first launch's link and the early ones (at most five) until the window has loaded", () => {
    const { app, sent, links } = setUp(['/opt/treasury-desk', 'treasury-desk://withdrawal/1']);
    for (let id = 2; id <= 6; id += 1) app.emit('second-instance', {}, ['/opt/treasury-desk', `treasury-desk://batch/${id}`], '/');
    expect(sent).toEqual([]);
    links.windowReady();
    expect(opened(sent)).toEqual([2, 3, 4, 5, 6].map((id) => ({ kind: 'payoutBatch', id: String(id) })));
    app.emit('open-url', { preventDefault: vi.fn() }, 'treasury-desk://deposit/abcdef0123456789');
    expect(opened(sent).at(-1)).toEqual({ kind: 'deposit', txid: 'abcdef0123456789' });
    links.windowGone();
    app.emit('second-instance', {}, ['/opt/treasury-desk', 'treasury-desk://withdrawal/9'], '/');
    expect(sent).toHaveLength(6);
    links.windowReady();
    expect(opened(sent).at(-1)).toEqual({ kind: 'withdrawal', id: '9' });
  });

  it('a second instance without a link only brings the window forward', () => {
    const { app, sent, focus, links } = setUp(['/opt/treasury-desk']);
    links.windowReady();
    app.emit('second-instance', {}, ['/opt/treasury-desk', '--some-switch'], '/');
    expect(focus).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([]);
  });
});
