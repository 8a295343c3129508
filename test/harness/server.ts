// Test harness only (never shipped): serves the built renderer on 127.0.0.1 with the bridge script injected and a
// CSP that additionally allows the harness WebSocket, and carries contract calls and events between the page and
// an engine (anything with TreasuryHandlers and onEvent) plus the desktop methods (the app's desktop handlers over a
// recording double) through dispatchWindowCall(), exactly as the Electron IPC does.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { dispatchWindowCall, type ContractEvent, type DesktopHandlers, type TreasuryHandlers } from '../../electron/contract';
import { appLog } from '../../electron/core/log';

/** What the harness needs from an engine: the contract handlers and the event stream. */
export interface HarnessEngine {
  readonly handlers: TreasuryHandlers;
  onEvent(listener: (event: ContractEvent) => void): () => void;
}

export interface HarnessOptions {
  readonly engine: HarnessEngine;
  /** The desktop methods (createDesktopHandlers over the harness's DesktopShell double). */
  readonly desktop: DesktopHandlers;
  /** Events the shell sends to the windows besides the engine's (a clicked notice's desktop/openItem). */
  readonly shellEvents?: { onEvent(listener: (event: ContractEvent) => void): () => void };
  /** Folder of the built renderer (out/renderer). */
  readonly rendererDir: string;
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
}

export interface HarnessServer {
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  readonly port: number;
  /** Connected pages. */
  clientCount(): number;
  close(): Promise<void>;
}

export const BRIDGE_PATH = '/harness-bridge.js';
export const SOCKET_PATH = '/harness-ws';
const HOST = '127.0.0.1';
const BRIDGE_SOURCE = fileURLToPath(new URL('./bridge-client.js', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

const FALLBACK_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; frame-src 'none'; " +
  "worker-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const META_CSP = /<meta\s+http-equiv=["']Content-Security-Policy["']\s+content=(?:"([^"]*)"|'([^']*)')\s*\/?>\s*/i;

/** The app's own policy (from its meta tag) with connect-src opened to exactly the harness socket. */
export function harnessPolicy(appPolicy: string, port: number): string {
  const directives = appPolicy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !directive.startsWith('connect-src'));
  directives.push(`connect-src ws://${HOST}:${port}`);
  return directives.join('; ');
}

/**
 * index.html as the harness serves it: the meta CSP is removed (the header replaces it: two policies would both
 * apply, and the meta one forbids the socket) and the bridge script is inserted before the app's module script.
 */
export function rewriteIndex(html: string): { readonly html: string; readonly appPolicy: string } {
  const match = META_CSP.exec(html);
  const appPolicy = match?.[1] ?? match?.[2] ?? FALLBACK_POLICY;
  let rewritten = match === null ? html : html.replace(META_CSP, '');
  const bridgeTag = `<script src="${BRIDGE_PATH}"></script>\n    `;
  const moduleScript = rewritten.search(/<script\s+type=["']module["']/i);
  rewritten = moduleScript === -1 ? rewritten.replace('</head>', `${bridgeTag}</head>`) : `${rewritten.slice(0, moduleScript)}${bridgeTag}${rewritten.slice(moduleScript)}`;
  return { html: rewritten, appPolicy };
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer, policy: string): void {
  response.writeHead(status, {
    'Content-Type': type,
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  response.end(body);
}

export async function startHarness(options: HarnessOptions): Promise<HarnessServer> {
  const rendererDir = resolve(options.rendererDir);
  const indexPath = join(rendererDir, 'index.html');
  if (!existsSync(indexPath)) throw new Error(`no built renderer at ${indexPath}: run \`npx electron-vite build\` (or the harness with --build)`);
  const bridgeSource = await readFile(BRIDGE_SOURCE, 'utf8');
  // Read per request, so a rebuilt renderer (new asset names) is served without restarting the harness.
  let index = rewriteIndex(await readFile(indexPath, 'utf8'));
  let port = 0;
  const policy = (): string => harnessPolicy(index.appPolicy, port);

  async function serveStatic(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'text/plain; charset=utf-8', 'method not allowed', policy());
      return;
    }
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    const path = decodeURIComponent(url.pathname);
    if (path === '/' || path === '/index.html') {
      index = rewriteIndex(await readFile(indexPath, 'utf8'));
      send(response, 200, CONTENT_TYPES['.html'] ?? 'text/html', index.html, policy());
      return;
    }
    if (path === BRIDGE_PATH) {
      send(response, 200, CONTENT_TYPES['.js'] ?? 'text/javascript', bridgeSource, policy());
      return;
    }
    const file = normalize(join(rendererDir, path));
    if (!file.startsWith(rendererDir + sep)) {
      send(response, 403, 'text/plain; charset=utf-8', 'forbidden', policy());
      return;
    }
    try {
      const body = await readFile(file);
      send(response, 200, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', body, policy());
    } catch {
      send(response, 404, 'text/plain; charset=utf-8', 'not found', policy());
    }
  }

  const server = createServer((request, response) => {
    serveStatic(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'harness error', policy());
      else response.destroy();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    const origin = request.headers.origin;
    if (url.pathname !== SOCKET_PATH || origin !== `http://${HOST}:${port}`) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request));
  });

  sockets.on('connection', (client: WebSocket) => {
    client.on('message', (data: RawData) => {
      void answer(client, data);
    });
  });

  async function answer(client: WebSocket, data: RawData): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      client.close(1003, 'not JSON');
      return;
    }
    if (message === null || typeof message !== 'object' || typeof (message as { id?: unknown }).id !== 'number') {
      client.close(1003, 'not a call');
      return;
    }
    const { id, method, payload } = message as { id: number; method: unknown; payload: unknown };
    const result = await dispatchWindowCall({ ...options.engine.handlers, ...options.desktop }, method, payload, (failed, error) =>
      appLog.error(`harness: ${failed} failed unexpectedly`, { method: failed, error }),
    );
    if (client.readyState === client.OPEN) client.send(JSON.stringify({ id, result }));
  }

  const forward = (event: ContractEvent): void => {
    const text = JSON.stringify({ event });
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(text);
  };
  const stopEngineEvents = options.engine.onEvent(forward);
  const stopShellEvents = options.shellEvents?.onEvent(forward);
  const stopEvents = (): void => {
    stopEngineEvents();
    stopShellEvents?.();
  };

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${HOST}:${port}/`,
    port,
    clientCount: () => sockets.clients.size,
    close() {
      closing ??= (async () => {
        stopEvents();
        for (const client of sockets.clients) client.terminate();
        await new Promise<void>((resolveClose) => sockets.close(() => resolveClose()));
        server.closeAllConnections();
        await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      })();
      return closing;
    },
  };
}
