// treasury-desk:// links in the main process: the app registered as the scheme's handler, a link handed to the running
// instance (second-instance on Windows and Linux, open-url on macOS, the first launch's own argv), parsed by the
// contract's pure parser and sent to the window as a desktop/openLink event. Invariant: a link only becomes a
// "show this" intent for the window; main never acts on it, and a link that arrives before the window has loaded waits
// for it (the last few only).
import { resolve } from 'node:path';
import { DEEP_LINK_SCHEME, deepLinkInArgv, parseDeepLink, type ContractEvent } from '../contract';
import type { Logger } from '../core/log';

/** The part of Electron's app this needs (a fake in the unit tests). */
export interface DeepLinkApp {
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
}

export interface DeepLinkOptions {
  readonly app: DeepLinkApp;
  /** Sends an event to the windows. */
  readonly send: (event: ContractEvent) => void;
  /** Shows and focuses the main window (a link brings the desk forward). */
  readonly focus: () => void;
  readonly log: Logger;
  /** process.argv of this (first) instance, which may hold the link that started the app. */
  readonly argv: readonly string[];
  /** process.defaultApp: started as `electron .` from a checkout, so the scheme must name the script too. */
  readonly defaultApp: boolean;
  readonly execPath: string;
}

/** Links kept while no window has loaded yet. */
const MAX_WAITING = 5;

export interface DeepLinks {
  /** The window finished loading: links that waited for it are sent now, later ones at once. */
  windowReady(): void;
  /** The window is gone (closed to the tray): links wait again until the next one loads. */
  windowGone(): void;
  /** Handles one raw link (what second-instance and open-url call). */
  deliver(raw: string): void;
}

export function installDeepLinks(options: DeepLinkOptions): DeepLinks {
  const { app, send, focus, log } = options;
  const waiting: ContractEvent[] = [];
  let ready = false;

  function deliver(raw: string): void {
    const link = parseDeepLink(raw);
    // Only the outcome and the escaped link are logged (a link holds ids, never a secret).
    log.info('app: a treasury-desk link arrived', { outcome: link.outcome, ...(link.outcome === 'refused' ? { problem: link.problem, link: link.link } : { target: link.target.kind }) });
    const event: ContractEvent = { type: 'desktop/openLink', link };
    focus();
    if (ready) send(event);
    else {
      waiting.push(event);
      if (waiting.length > MAX_WAITING) waiting.shift();
    }
  }

  const registered = options.defaultApp
    ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, options.execPath, [resolve(options.argv[1] ?? '.')])
    : app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  if (!registered) log.warn(`app: could not register as the handler of ${DEEP_LINK_SCHEME}:// links (links still work when the installer registered them)`);

  app.on('second-instance', (_event, argv) => {
    const raw = deepLinkInArgv(argv);
    if (raw === null) focus();
    else deliver(raw);
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deliver(url);
  });
  const first = deepLinkInArgv(options.argv);
  if (first !== null) deliver(first);

  return {
    windowReady() {
      ready = true;
      for (const event of waiting.splice(0)) send(event);
    },
    windowGone() {
      ready = false;
    },
    deliver,
  };
}
