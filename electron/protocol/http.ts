// The one HTTP layer of the protocol clients: undici Pool per origin, timeouts from the profile, a response size cap,
// and every transport failure mapped to TransportError whose `ambiguous` says whether the request may have reached
// the service. Invariant: `ambiguous` is false only when the request surely never left this machine.
import { Pool, type Dispatcher } from 'undici';
import { serviceBaseUrlProblem } from '../chains/service-url';
import { InvalidArgumentError, TransportError } from './errors';
import {
  HTTP_BODY_TIMEOUT_MS,
  HTTP_CONNECT_TIMEOUT_MS,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_MAX_RESPONSE_BYTES,
} from './profile';

export interface HttpTimeouts {
  /** TCP (and TLS) connection establishment. */
  readonly connectMs: number;
  /** From sending the request until the response headers are complete. */
  readonly headersMs: number;
  /** Longest silence while reading the response body. */
  readonly bodyMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  connectMs: HTTP_CONNECT_TIMEOUT_MS,
  headersMs: HTTP_HEADERS_TIMEOUT_MS,
  bodyMs: HTTP_BODY_TIMEOUT_MS,
};

export interface HttpTransportOptions {
  /** Use this dispatcher instead of an own Pool (tests, proxies). It is not closed by `close()`. */
  readonly dispatcher?: Dispatcher;
  readonly timeouts?: Partial<HttpTimeouts>;
  readonly maxResponseBytes?: number;
}

export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  /** Path from the profile (PATHS), appended to the base URL's own path. */
  readonly path: string;
  /** Operation name used in error messages. */
  readonly endpoint: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  /** Lower-case header names, as received. */
  readonly headers: HttpHeaders;
  readonly body: Buffer;
}

/** Error codes raised before the request can have been written: connection refused, DNS, connect timeout, TLS. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
  'UND_ERR_ABORT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** Human text per code: what happened and what to do. */
const CODE_DETAIL: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused: nothing is listening at the service address; check the base URL',
  ENOTFOUND: 'the service host name could not be resolved; check the base URL and the network',
  EAI_AGAIN: 'DNS lookup failed temporarily; check the network and try again',
  EHOSTUNREACH: 'the service host is unreachable; check the network',
  ENETUNREACH: 'the network is unreachable; check the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connecting to the service timed out; check the network and try again',
  UND_ERR_HEADERS_TIMEOUT: 'the service did not answer in time after receiving the request',
  UND_ERR_BODY_TIMEOUT: 'the service stopped sending its answer part way through',
  UND_ERR_SOCKET: 'the connection was closed before the answer arrived',
  ECONNRESET: 'the connection was reset before the answer arrived',
  EPIPE: 'the connection broke while sending the request',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer was truncated',
  UND_ERR_ABORTED: 'the request was cancelled',
  UND_ERR_DESTROYED: 'the HTTP client was closed',
  UND_ERR_CLOSED: 'the HTTP client was closed',
};

/** The error code of a failure, looking through `cause` and AggregateError members (happy-eyeballs connects). */
export function errorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.length > 0) return code;
    const members = (current as { errors?: unknown }).errors;
    if (Array.isArray(members)) {
      for (const member of members) {
        const inner = errorCode(member);
        if (inner !== undefined) return inner;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Maps a failure to a TransportError. `requestStarted` says whether undici began writing the request to a socket:
 * once it did, any failure is ambiguous (the service may have acted on it). Before that, only the codes known to
 * stop a request before sending are unambiguous; anything unrecognised is treated as ambiguous, the safe side.
 */
export function toTransportError(error: unknown, endpoint: string, requestStarted: boolean): TransportError {
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const ambiguous = requestStarted || code === undefined || !NOT_SENT_CODES.has(code);
  const known = code !== undefined ? CODE_DETAIL[code] : undefined;
  const detail = known ?? `the request failed at the transport level${code ? ` (${code})` : ''}`;
  const advice = ambiguous ? '' : '; nothing was sent';
  return new TransportError(endpoint, ambiguous, `${detail}${advice}`, undefined, { cause: error });
}

type DispatchFn = Dispatcher['dispatch'];

/**
 * An undici interceptor that notes when a request is handed to a connected socket (onRequestStart fires right before
 * the request bytes are written), so a failure can be classified as "never sent" precisely.
 */
function startTracker(started: (key: object) => void) {
  return (dispatch: DispatchFn): DispatchFn =>
    (options, handler) => {
      const tracked: Dispatcher.DispatchHandler = {
        onRequestStart: (controller, context) => {
          started(options);
          handler.onRequestStart?.(controller, context);
        },
        onRequestUpgrade: (controller, statusCode, headers, socket) =>
          handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
        onResponseStart: (controller, statusCode, headers, statusMessage) =>
          handler.onResponseStart?.(controller, statusCode, headers, statusMessage),
        onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
        onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      };
      return dispatch(options, tracked);
    };
}

export class HttpTransport {
  private readonly origin: string;
  private readonly basePath: string;
  private readonly timeouts: HttpTimeouts;
  private readonly maxResponseBytes: number;
  private readonly ownPool: Pool | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly startedRequests = new WeakSet<object>();
  private closed = false;

  constructor(baseUrl: string, options: HttpTransportOptions = {}) {
    const problem = serviceBaseUrlProblem(baseUrl);
    if (problem !== null) throw new InvalidArgumentError('baseUrl', `${problem}.`);
    const url = new URL(baseUrl.trim());
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
    this.maxResponseBytes = options.maxResponseBytes ?? HTTP_MAX_RESPONSE_BYTES;
    const base =
      options.dispatcher ??
      (this.ownPool = new Pool(this.origin, {
        connect: { timeout: this.timeouts.connectMs },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      }));
    this.dispatcher = base.compose(startTracker((key) => this.startedRequests.add(key)));
  }

  /** Sends one request and reads the whole answer. 5xx, timeouts and broken connections become TransportError. */
  async request(request: HttpRequest): Promise<HttpResponse> {
    const { endpoint } = request;
    if (this.closed) throw new TransportError(endpoint, false, 'the client was closed; nothing was sent');
    if (request.signal?.aborted) throw new TransportError(endpoint, false, 'the request was cancelled before sending; nothing was sent');

    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
    const options: Dispatcher.RequestOptions = {
      origin: this.origin,
      path: `${this.basePath}${request.path}${query}`,
      method: request.method,
      headers: request.headers ?? {},
      body: request.body ?? null,
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.bodyMs,
      signal: request.signal ?? null,
      idempotent: false,
    };

    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatcher.request(options);
    } catch (error) {
      throw toTransportError(error, endpoint, this.startedRequests.has(options));
    }

    const body = await this.readBody(response, endpoint);
    if (response.statusCode >= 500) {
      throw new TransportError(
        endpoint,
        true,
        `the service answered HTTP ${response.statusCode}; it may or may not have processed the request`,
        response.statusCode,
      );
    }
    return { status: response.statusCode, headers: response.headers, body };
  }

  private async readBody(response: Dispatcher.ResponseData, endpoint: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of response.body) {
        const bytes = chunk as Buffer;
        total += bytes.length;
        if (total > this.maxResponseBytes) {
          response.body.destroy();
          throw new TransportError(
            endpoint,
            true,
            `the answer is larger than ${this.maxResponseBytes} bytes and was not read; the request may have been processed`,
            response.statusCode,
          );
        }
        chunks.push(bytes);
      }
    } catch (error) {
      throw toTransportError(error, endpoint, true);
    }
    return Buffer.concat(chunks, total);
  }

  /** Closes the own pool (an injected dispatcher belongs to the caller). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownPool) await this.ownPool.close();
  }
}

/** A single header value: undefined when absent, and also when repeated (a repeated security header is refused). */
export function singleHeader(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}
