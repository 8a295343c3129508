// HTTP plumbing of the sandbox server: bounded body reading that stops at the limit (§5.4), small response
// writers, and loopback detection for the admin interface and the listen address.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

export type BodyResult = { readonly kind: 'ok'; readonly body: Buffer } | { readonly kind: 'tooLarge' } | { readonly kind: 'aborted' };

/** How long a refused over-limit connection may linger (half-closed, unread) before it is destroyed. */
const TOO_LARGE_LINGER_MS = 2000;

/**
 * Reads the request body, at most `limit` bytes. A declared Content-Length over the limit is refused before reading
 * anything; a body that grows past the limit stops being read at that point (§5.4: "the server stops reading").
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = request.headers['content-length'];
  if (declared !== undefined && /^[0-9]+$/.test(declared) && Number(declared) > limit) {
    request.pause();
    return Promise.resolve({ kind: 'tooLarge' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        request.pause();
        resolve({ kind: 'tooLarge' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ kind: 'ok', body: Buffer.concat(chunks, size) });
    };
    const onError = (): void => {
      cleanup();
      resolve({ kind: 'aborted' });
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}

/**
 * Answers an over-limit request and closes its connection without reading the rest: the answer is flushed, our
 * side half-closes, and the socket is destroyed once the client closes or after a short linger.
 */
export function sendAndStopReading(response: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const socket = response.socket;
  response.shouldKeepAlive = false;
  response.writeHead(status, { ...headers, Connection: 'close', 'Content-Length': String(Buffer.byteLength(body)) });
  response.end(body);
  if (socket) {
    const timer = setTimeout(() => socket.destroy(), TOO_LARGE_LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  }
}

export function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  response.writeHead(status, { ...headers, 'Content-Length': String(length) });
  response.end(body);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, { 'Content-Type': 'application/json' }, JSON.stringify(value));
}

/** 404 for an unknown path (§5.5). */
export function sendNotFound(response: ServerResponse): void {
  send(response, 404, { 'Content-Type': 'text/plain' }, 'Not Found');
}

/** 405 for a known path with the wrong method (§5.5). */
export function sendMethodNotAllowed(response: ServerResponse, allowed: string): void {
  send(response, 405, { 'Content-Type': 'text/plain', Allow: allowed }, 'Method Not Allowed');
}

/** Whether an address is a loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const unmapped = address.replace(/^::ffff:/i, '');
  if (isIP(unmapped) === 4) return unmapped.startsWith('127.');
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** Whether a Host header's host (`127.0.0.1:8080`, `[::1]:80`, `localhost`) is a loopback name or address. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::[0-9]{1,5})?$/.exec(host.trim());
  if (!match) return false;
  const name = (match[1] ?? match[2] ?? '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isIP(name) !== 0 && isLoopbackAddress(name);
}

/** Whether an Origin header names a loopback http(s) origin (`http://127.0.0.1:5173`); `null` and others are not. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}

/** The value of a header that must appear once; undefined when missing (repeated headers are joined by Node). */
export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
