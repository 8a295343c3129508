// Small fakes of the Electron objects the shell uses (web contents, frames, sessions, ipcMain, app, shell, powerMonitor,
// nativeTheme, screen, Menu, tray, notifications), recording what was installed so tests can fire events at it. Cast
// to Electron's types at the call site.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export interface FakeNavigationEvent {
  readonly url: string;
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function navigationEvent(url: string): FakeNavigationEvent {
  return {
    url,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

let nextContentsId = 1;

/** A web contents: an event emitter with setWindowOpenHandler, send and a URL. */
export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  windowOpenHandler: ((details: { url: string; frameName: string; features: string; disposition: string }) => { action: string }) | null = null;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  url = '';
  destroyed = false;

  setWindowOpenHandler(handler: NonNullable<FakeWebContents['windowOpenHandler']>): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Fires a navigation-like event and answers whether the listener prevented it. */
  navigate(eventName: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', url: string): boolean {
    const event = navigationEvent(url);
    this.emit(eventName, event, url);
    return event.defaultPrevented;
  }
}

export interface FakeFrame {
  readonly url: string;
  readonly parent: FakeFrame | null;
}

export function mainFrame(url: string): FakeFrame {
  return { url, parent: null };
}

export function childFrame(url: string, parentUrl: string): FakeFrame {
  return { url, parent: mainFrame(parentUrl) };
}

/** A session with webRequest.onHeadersReceived and the three permission handlers. */
export class FakeSession {
  headersListener: ((details: { responseHeaders?: Record<string, string[]> }, callback: (response: unknown) => void) => void) | null = null;
  permissionRequestHandler: ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void) | null = null;
  permissionCheckHandler: ((contents: unknown, permission: string, origin: string, details: unknown) => boolean) | null = null;
  devicePermissionHandler: ((details: unknown) => boolean) | null = null;

  readonly webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: NonNullable<FakeSession['permissionRequestHandler']>): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: NonNullable<FakeSession['permissionCheckHandler']>): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: NonNullable<FakeSession['devicePermissionHandler']>): void {
    this.devicePermissionHandler = handler;
  }
}

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

/** ipcMain: handle/removeHandler recorded by channel, and a way to invoke like a renderer would. */
export class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();
  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }
}

export function fakeShell(): { openExternal: ReturnType<typeof vi.fn> } {
  return { openExternal: vi.fn(async () => undefined) };
}

/** app: an event emitter with the lifecycle functions main/index.ts calls. */
export class FakeApp extends EventEmitter {
  isPackaged = false;
  ready = false;
  gotLock = true;
  readonly enableSandbox = vi.fn((): void => undefined);
  readonly quit = vi.fn((): void => undefined);
  readonly setBadgeCount = vi.fn((_count?: number) => true);
  readonly relaunch = vi.fn((): void => undefined);
  readonly requestSingleInstanceLock = vi.fn(() => this.gotLock);
  readonly exit = vi.fn((_code?: number): void => undefined);
  readonly setAboutPanelOptions = vi.fn((_options?: unknown): void => undefined);
  readonly setAsDefaultProtocolClient = vi.fn((_protocol: string, _path?: string, _args?: string[]) => true);
  readonly setPath = vi.fn((_name: string, _path: string) => undefined);
  /** Chromium's command line: switches given by ways other than argv (none here). */
  readonly commandLine = { hasSwitch: (_name: string): boolean => false };
  getVersion(): string {
    return '9.8.7';
  }
  #resolveReady: () => void = () => undefined;
  readonly #whenReady = new Promise<void>((resolve) => {
    this.#resolveReady = resolve;
  });
  whenReady(): Promise<void> {
    return this.#whenReady;
  }
  isReady(): boolean {
    return this.ready;
  }
  getAppPath(): string {
    return '/nonexistent/treasury-desk';
  }
  getPath(name: string): string {
    return `/nonexistent/user-data/${name}`;
  }
  becomeReady(): void {
    this.ready = true;
    this.#resolveReady();
  }
}

/** powerMonitor: an event emitter; tests emit `lock-screen`, `suspend`, `resume` as the OS would. */
export class FakePowerMonitor extends EventEmitter {}

/** nativeTheme: the OS's dark setting (tests flip it and emit `updated`) and the theme source main chooses. */
export class FakeNativeTheme extends EventEmitter {
  themeSource = 'light';
  shouldUseDarkColors = false;
}

/** screen: the displays connected now (their work areas). */
export class FakeScreen {
  workAreas = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  getAllDisplays(): { workArea: { x: number; y: number; width: number; height: number } }[] {
    return this.workAreas.map((workArea) => ({ workArea }));
  }
}

/** Menu: a built menu is its template (the tray's context menu too); setApplicationMenu records what was set. */
export class FakeMenu {
  static applicationMenu: { template: unknown[] } | null = null;
  static buildFromTemplate<T>(template: T[]): T[] {
    return template;
  }
  static setApplicationMenu(menu: unknown[] | null): void {
    FakeMenu.applicationMenu = menu === null ? null : { template: menu };
  }
}

/** Tray: records its icon, tooltip and menu (a fake Menu is its template), and its click listener. */
export class FakeTray extends EventEmitter {
  tooltip = '';
  menu: Array<{ id?: string; label?: string; type?: string; click?: () => void }> = [];
  destroyed = false;
  constructor(readonly icon: string) {
    super();
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: FakeTray['menu']): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** Clicks the menu item with this id. */
  clickItem(id: string): void {
    const item = this.menu.find((entry) => entry.id === id);
    if (item?.click === undefined) throw new Error(`no menu item ${id}`);
    item.click();
  }
}

/** Notification: records its options and whether it was shown; `click()` fires its click listeners. */
export class FakeNotification extends EventEmitter {
  shown = false;
  constructor(readonly options: { title?: string; body?: string }) {
    super();
  }
  show(): void {
    this.shown = true;
  }
  click(): void {
    this.emit('click');
  }
}
