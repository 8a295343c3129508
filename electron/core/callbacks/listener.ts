// The optional local callback receiver (PROTOCOL §10): verifies each POST like a response (app ID, window, nonce,
// signature, decryption, schema), stores it through the same path as sync, and acknowledges with `success` only
// after the record is stored. Anything unverified is refused and changes nothing; refusals are counted, the most recent
// kept in memory with the check that refused them (callbacks/refusals), only a bounded sample is audited, each source
// address is rate-limited (refusals.ts), and listening beyond loopback needs an admin and is audited.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackListenerState, CallbackRefusalCode, CallbackRefusalsView } from '../../contract';
import {
  CALLBACK_ACK_BODY,
  inlineDecryptor,
  MAX_REQUEST_BODY_BYTES,
  ProtocolError,
  verifyCallback,
} from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { actingAs, type OperatorCredentials } from '../operators';
import { isLoopbackHost, RefusalLog, refusalCodeOf, RefusalSampler, SourceRateLimit, type RefusalSummary } from './refusals';
import { appLog } from '../log';
import { storeDeposits } from '../sync';
import { storeOrderStatus } from '../withdrawals';

export const DEFAULT_CALLBACK_HOST = '127.0.0.1';
export const DEFAULT_CALLBACK_PORT = 8788;

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export class CallbackListener {
  #server: Server | undefined;
  #url: string | null = null;
  #received = 0;
  #refused = 0;
  #lastError: string | null = null;
  #sampler = new RefusalSampler();
  #limit = new SourceRateLimit();
  #refusals = new RefusalLog();

  constructor(private readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection) {}

  state(): CallbackListenerState {
    return { running: this.#server !== undefined, url: this.#url, received: this.#received, refused: this.#refused, lastError: this.#lastError };
  }

  /** The most recent refusals of this process, newest first, with counts per code (never persisted). */
  refusals(): CallbackRefusalsView {
    return this.#refusals.view();
  }

  async start(
    options: { readonly host?: string | undefined; readonly port?: number | undefined; readonly as?: OperatorCredentials | undefined } = {},
  ): Promise<CallbackListenerState> {
    if (this.#server) throw new DeskError('conflict', `the callback listener is already running at ${this.#url}`);
    const profile = this.context.activeProfile();
    const host = options.host ?? profile.callbackHost ?? DEFAULT_CALLBACK_HOST;
    const port = options.port ?? profile.callbackPort ?? DEFAULT_CALLBACK_PORT;
    // Beyond loopback, anyone who can reach the address may send requests: only an admin opens the desk to that.
    let exposedBy: string | null = null;
    if (!isLoopbackHost(host)) {
      if (options.as === undefined) {
        throw new DeskError('forbidden', `listening on ${host} lets other machines reach the desk: an admin must start it (--as ADMIN), or listen on 127.0.0.1`);
      }
      exposedBy = (await actingAs(this.context, options.as, 'manageSettings')).name;
      if ((this.context.trail.roster(profile.name).at(exposedBy)?.role ?? null) !== 'admin') {
        throw new DeskError('forbidden', `${exposedBy} is not an admin: only an admin may let the callback listener listen beyond this machine`);
      }
    }
    await this.context.keys(); // fail now, not on the first callback, when credentials are missing
    const server = createServer((request, response) => void this.#handle(request, response));
    server.requestTimeout = 15_000;
    server.headersTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new DeskError('conflict', `the callback listener cannot listen on ${host}:${port}: ${error.code ?? error.message}`)),
      );
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    this.#server = server;
    this.#url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/callbacks`;
    this.context.audit({ profile: profile.name, action: 'callbacks/start', subject: this.#url, ...(exposedBy === null ? {} : { details: { beyondLoopback: true, admin: exposedBy } }) });
    this.#changed();
    return this.state();
  }

  async stop(): Promise<CallbackListenerState> {
    const server = this.#server;
    if (server) {
      this.#server = undefined;
      this.#auditSummary(this.#sampler.flush(this.context.now()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      this.#url = null;
      this.#changed();
    }
    return this.state();
  }

  #changed(): void {
    this.context.emit({ type: 'callbacks/changed', listener: this.state() });
  }

  #answer(response: ServerResponse, status: number, body: string): void {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A source over its rate is turned away before any work: counted, never audited one by one.
    const source = request.socket.remoteAddress ?? '?';
    if (!this.#limit.allow(source, this.context.now())) {
      request.resume();
      return this.#refuse(response, source, 429, 'rateLimited', 'too many requests from one source');
    }
    if (request.method !== 'POST') return this.#answer(response, 405, 'POST only');
    let body: string;
    try {
      body = await readBody(request, MAX_REQUEST_BODY_BYTES);
    } catch (error) {
      return error instanceof BodyTooLarge
        ? this.#refuse(response, source, 413, 'bodyTooLarge', `the callback body is larger than ${MAX_REQUEST_BODY_BYTES} bytes`)
        : this.#refuse(response, source, 400, 'bodyUnreadable', 'the callback body could not be read');
    }
    const profile = this.context.activeProfile();
    try {
      const keys = await this.context.keys();
      const verified = await verifyCallback(body, request.headers, {
        merchantId: keys.merchantId,
        platformPublicKey: keys.platformPublicKey,
        decryptor: inlineDecryptor(keys.merchantPrivateKey),
        // §4.4: the same memory as the merchant client's response nonces, so a captured response cannot be replayed here.
        nonceMemory: this.context.nonces,
        clock: this.context.now,
      });
      if (verified.type === 'deposit') {
        storeDeposits(this.context, profile.name, [verified.record], 'callback');
      } else {
        const intake = storeOrderStatus(this.context, verified.record, 'callback');
        if (!intake.known) {
          this.context.audit({
            profile: profile.name,
            action: 'callbacks/unknownOrder',
            subject: verified.record.userOrder,
            details: { orderStatus: verified.record.orderStatus },
          });
        }
      }
      this.#received += 1;
      this.#changed();
      return this.#answer(response, 200, CALLBACK_ACK_BODY);
    } catch (error) {
      if (error instanceof ProtocolError) return this.#refuse(response, source, 400, refusalCodeOf(error), error.message);
      appLog.error('callbacks: a verified callback could not be stored', { profile: profile.name, error });
      this.#lastError = error instanceof Error ? error.message : String(error);
      this.#changed();
      // Not acknowledged: the platform retries (§10.3).
      return this.#answer(response, 500, 'not stored');
    }
  }

  #refuse(response: ServerResponse, source: string, status: number, code: CallbackRefusalCode, reason: string): void {
    this.#refused += 1;
    this.#lastError = reason;
    this.#refusals.record({ at: this.context.now(), source, status, code, reason });
    const { audit, summary } = this.#sampler.record(this.context.now(), reason);
    this.#auditSummary(summary);
    if (audit) this.context.audit({ profile: this.context.activeProfileName() ?? null, action: 'callbacks/refused', details: { reason } });
    this.#changed();
    this.#answer(response, status, 'refused');
  }

  /** One row for the refusals of a window that were counted but not audited one by one. */
  #auditSummary(summary: RefusalSummary | null): void {
    if (summary === null) return;
    this.context.audit({
      profile: this.context.activeProfileName() ?? null,
      action: 'callbacks/refusedSummary',
      details: { from: summary.from, to: summary.to, notAudited: summary.notAudited, reasons: [...summary.reasons] },
    });
  }
}
