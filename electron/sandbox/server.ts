// The sandbox's HTTP server: routes `/api/merchant/` (business, §4–§8), `/api/common/` (public, §12) and
// `/sandbox/` (admin, loopback only) on one port; anything else is 404 (§5.5). Unexpected errors answer 500.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BUSINESS_PATH_PREFIX, PUBLIC_PATH_PREFIX } from '../protocol/profile';
import { AdminApi, ADMIN_PREFIX } from './admin-api';
import { sendJson, sendNotFound } from './http';
import { MerchantApi } from './merchant-api';
import { PublicApi } from './public-api';
import type { SandboxService } from './service';

export interface SandboxServer {
  readonly server: Server;
  /** Stops accepting, drops open connections, and resolves once the server is closed. */
  close(): Promise<void>;
}

export function createSandboxServer(service: SandboxService, baseUrl: () => string): SandboxServer {
  const merchantApi = new MerchantApi(service, service.platformPrivateKey);
  const publicApi = new PublicApi(service);
  const adminApi = new AdminApi({ service, baseUrl });

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    if (path.startsWith(BUSINESS_PATH_PREFIX)) return merchantApi.handle(request, response, path);
    if (path.startsWith(PUBLIC_PATH_PREFIX)) return publicApi.handle(request, response, path);
    if (path.startsWith(ADMIN_PREFIX)) return adminApi.handle(request, response, url);
    request.resume();
    return sendNotFound(response);
  };

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      console.error(`sandbox: ${request.method ?? '?'} ${request.url ?? '?'} failed: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) sendJson(response, 500, { error: 'internal', reason: (error as Error).message });
      else response.destroy();
    });
  });
  // Keep-alive connections of benchmark clients stay open between requests; the defaults are fine otherwise.
  server.keepAliveTimeout = 5000;

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
