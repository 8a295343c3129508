// Worker-thread pool for the RSA-OAEP private decryption of PROTOCOL §2: spreads a payload's blocks over the cores so a
// 100-record page decrypts in parallel while the calling thread stays responsive. Same results and same §2.4 errors as
// the inline path (cipher.ts); the key is handed to each worker once, as a KeyObject, and never re-parsed per request.
import type { KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { decodeStrictBase64, decryptBlock, splitBlocks } from './cipher';
import type { PayloadDecryptor } from './decryptor';
import { InvalidArgumentError, KeyFormatError } from './errors';
import { epochNow, poolTiming, traceIntake, type PoolSliceTiming } from './intake-tracing';
import { modulusBytes } from './keys';
import { OAEP_HASH } from './profile';

/**
 * Payloads of at most this many blocks are decrypted on the calling thread. Measured on 2 idle cores (2048-bit,
 * `npm run bench -- protocol`, third table): 1 block takes 0.70 ms inline vs 0.79 ms on the pool (nothing to split,
 * only the round trip); 2 blocks 1.37 ms inline vs 0.95 ms on the pool, 3 blocks 2.04 vs 1.66, 4 blocks 2.71 vs 1.75.
 * The 0.4 ms that the pool saves on 2 blocks is not worth queueing: the workers take payloads in order, so while they
 * decrypt a 168-block getDeposits page a pooled 2-block payload waits about 58 ms, inline it takes 1.4 ms. Token,
 * address, order and merchant-info responses are 1–2 blocks: they stay inline and never wait behind a bulk sync.
 */
export const INLINE_MAX_BLOCKS = 2;

export interface CryptoPoolOptions {
  /** The private key that decrypts responses (§2.2). Parsed once by the caller; the pool never re-parses it. */
  readonly privateKey: KeyObject;
  /** Worker threads; default `os.availableParallelism()`, at least 1. */
  readonly threads?: number;
  /** Payloads of at most this many blocks skip the workers; default INLINE_MAX_BLOCKS. 0 sends everything to them. */
  readonly inlineMaxBlocks?: number;
}

export interface CryptoPool extends PayloadDecryptor {
  /** Number of worker threads (fixed at creation). */
  readonly threads: number;
  /** Workers that died unexpectedly so far; each was replaced by a fresh one on the next payload. */
  readonly crashes: number;
}

export type CryptoPoolFailure = 'closed' | 'workerCrashed';

/** The pool itself failed (as opposed to the ciphertext, which fails with CipherError). Never contains key material. */
export class CryptoPoolError extends Error {
  constructor(
    readonly failure: CryptoPoolFailure,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'CryptoPoolError';
  }
}

/** A request to a worker: a contiguous run of k-byte blocks in its own (transferred) ArrayBuffer. */
interface WorkerRequest {
  readonly id: number;
  readonly ciphertext: ArrayBuffer;
  readonly blockBytes: number;
}

/**
 * A worker's answer: the plaintext of the run in its own (transferred) ArrayBuffer, or the index of the failing block;
 * with when it took the request up and finished it (epoch ms, intake-tracing.ts).
 */
type WorkerReply =
  | { readonly id: number; readonly plaintext: ArrayBuffer; readonly startedAt: number; readonly finishedAt: number }
  | { readonly id: number; readonly failedBlock: number };

/**
 * The worker, as plain CommonJS evaluated with `eval: true`: no file path to resolve, so it runs unchanged under tsx,
 * vitest and an electron-vite single-file bundle. `workerData.privateKey` is the caller's KeyObject, posted once at
 * start: Node clones a KeyObject to a worker as a handle to the same parsed key, so no key bytes are exported to a
 * JavaScript buffer and nothing is parsed again. (Measured: 2 workers sharing it reach the same 1.98x as 2 workers each
 * parsing their own PKCS#8 copy.)
 */
const WORKER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { constants, privateDecrypt } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const options = { key: workerData.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: workerData.oaepHash };
parentPort.on('message', (request) => {
  const startedAt = performance.timeOrigin + performance.now();
  const ciphertext = new Uint8Array(request.ciphertext);
  const k = request.blockBytes;
  const count = ciphertext.length / k;
  const parts = new Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    try {
      parts[i] = privateDecrypt(options, ciphertext.subarray(i * k, (i + 1) * k));
    } catch {
      parentPort.postMessage({ id: request.id, failedBlock: i });
      return;
    }
    total += parts[i].length;
  }
  const plaintext = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    plaintext.set(part, offset);
    offset += part.length;
  }
  const finishedAt = performance.timeOrigin + performance.now();
  parentPort.postMessage({ id: request.id, plaintext: plaintext.buffer, startedAt, finishedAt }, [plaintext.buffer]);
});
`;

interface Job {
  readonly blocks: readonly Buffer[];
  readonly parts: Array<Buffer | undefined>;
  remaining: number;
  settled: boolean;
  readonly resolve: (plaintext: Buffer) => void;
  readonly reject: (error: unknown) => void;
}

/** One slice of a job on one worker. */
interface Slice {
  readonly job: Job;
  readonly index: number;
  readonly firstBlock: number;
  readonly blockCount: number;
  /** When it was posted to the worker (epoch ms), for the pool's timing channel. */
  readonly postedAt: number;
}

interface Slot {
  /** Its place in the pool, 0-based (the timing channel's `worker`). */
  readonly place: number;
  worker: Worker | undefined;
  /** Blocks sent and not yet answered: the load used to pick workers, and whether the worker must keep Node alive. */
  outstandingBlocks: number;
  readonly inflight: Map<number, Slice>;
  lastError: unknown;
}

const slotsByPool = new WeakMap<CryptoPool, readonly Slot[]>();

/**
 * Creates the pool and starts its workers. Idle workers are unref()ed (they never keep the process alive); a worker
 * with work in flight is ref()ed so an awaited decrypt completes even when nothing else keeps the event loop busy.
 * A worker that dies rejects its in-flight payloads with CryptoPoolError('workerCrashed') and is respawned on the next
 * payload that needs it.
 */
export function createCryptoPool(options: CryptoPoolOptions): CryptoPool {
  const { privateKey } = options;
  if (privateKey.type !== 'private') {
    throw new KeyFormatError('wrongKind', 'private key', 'is not a private key; the crypto pool decrypts with the merchant private key.');
  }
  const blockBytes = modulusBytes(privateKey);
  const threads = options.threads ?? Math.max(1, availableParallelism());
  if (!Number.isSafeInteger(threads) || threads < 1) {
    throw new InvalidArgumentError('threads', `must be a positive integer, got ${String(threads)}.`);
  }
  const inlineMaxBlocks = options.inlineMaxBlocks ?? INLINE_MAX_BLOCKS;
  if (!Number.isSafeInteger(inlineMaxBlocks) || inlineMaxBlocks < 0) {
    throw new InvalidArgumentError('inlineMaxBlocks', `must be a non-negative integer, got ${String(inlineMaxBlocks)}.`);
  }

  const slots: Slot[] = Array.from({ length: threads }, (_, place) => ({
    place,
    worker: undefined,
    outstandingBlocks: 0,
    inflight: new Map<number, Slice>(),
    lastError: undefined,
  }));
  let nextId = 1;
  let crashes = 0;
  let closing: Promise<void> | undefined;

  function fail(job: Job, error: unknown): void {
    if (job.settled) return;
    job.settled = true;
    job.reject(error);
  }

  function spawn(slot: Slot): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      name: 'crypto-pool',
      // The source is plain CommonJS needing no loader: do not inherit the parent's flags (`--import tsx`,
      // `--input-type=module` would make the evaluated source an ES module without `require`).
      execArgv: [],
      workerData: { privateKey, oaepHash: OAEP_HASH },
    });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => onReply(slot, reply));
    worker.on('error', (error) => {
      slot.lastError = error;
    });
    // A reply that cannot be deserialized leaves its payload unanswerable: treat the worker as broken.
    worker.on('messageerror', (error) => {
      slot.lastError = error;
      void worker.terminate();
    });
    worker.on('exit', (code) => onExit(slot, worker, code));
    slot.worker = worker;
    slot.lastError = undefined;
    return worker;
  }

  function settleLoad(slot: Slot, blockCount: number): void {
    slot.outstandingBlocks -= blockCount;
    if (slot.outstandingBlocks === 0) slot.worker?.unref();
  }

  function onReply(slot: Slot, reply: WorkerReply): void {
    const slice = slot.inflight.get(reply.id);
    if (!slice) return;
    slot.inflight.delete(reply.id);
    settleLoad(slot, slice.blockCount);
    const { job } = slice;
    if (job.settled) return;
    if ('failedBlock' in reply) {
      fail(job, oaepError(job.blocks, slice.firstBlock + reply.failedBlock));
      return;
    }
    if (poolTiming.hasSubscribers) {
      const timing: PoolSliceTiming = {
        worker: slot.place,
        blocks: slice.blockCount,
        postedAt: slice.postedAt,
        startedAt: reply.startedAt,
        finishedAt: reply.finishedAt,
        receivedAt: epochNow(),
      };
      poolTiming.publish(timing);
    }
    job.parts[slice.index] = Buffer.from(reply.plaintext);
    job.remaining -= 1;
    if (job.remaining === 0) {
      job.settled = true;
      job.resolve(job.parts.length === 1 ? job.parts[0]! : traceIntake('join', () => Buffer.concat(job.parts as Buffer[])));
    }
  }

  function onExit(slot: Slot, worker: Worker, code: number): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    const lost = [...slot.inflight.values()];
    slot.inflight.clear();
    slot.outstandingBlocks = 0;
    if (closing) return;
    crashes += 1;
    const cause = slot.lastError;
    const detail =
      `a decryption worker stopped unexpectedly (exit code ${code}${cause instanceof Error ? `: ${cause.message}` : ''}); ` +
      'the payloads it held were not decrypted. Retry: a new worker is started for the next payload.';
    for (const slice of lost) fail(slice.job, new CryptoPoolError('workerCrashed', detail, { cause }));
  }

  /** Rebuilds the exact inline error (same class, failure and text as cipher.ts) by decrypting the failing block here. */
  function oaepError(blocks: readonly Buffer[], index: number): unknown {
    try {
      decryptBlock(blocks[index]!, privateKey);
    } catch (error) {
      return error;
    }
    return new CryptoPoolError('workerCrashed', 'a decryption worker refused a block that decrypts on the calling thread.');
  }

  /** Picks `count` distinct slots with the least outstanding work. */
  function leastLoaded(count: number): Slot[] {
    return [...slots].sort((a, b) => a.outstandingBlocks - b.outstandingBlocks).slice(0, count);
  }

  function dispatch(ciphertext: Buffer, blocks: readonly Buffer[]): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const sliceCount = Math.min(threads, blocks.length);
      const job: Job = { blocks, parts: new Array<Buffer | undefined>(sliceCount), remaining: sliceCount, settled: false, resolve, reject };
      const base = Math.floor(blocks.length / sliceCount);
      const extra = blocks.length % sliceCount;
      let firstBlock = 0;
      leastLoaded(sliceCount).forEach((slot, index) => {
        const blockCount = base + (index < extra ? 1 : 0);
        // Each slice gets its own ArrayBuffer, transferred (not cloned) to the worker.
        const run = new Uint8Array(blockCount * blockBytes);
        run.set(ciphertext.subarray(firstBlock * blockBytes, (firstBlock + blockCount) * blockBytes));
        const id = nextId++;
        const worker = slot.worker ?? spawn(slot);
        slot.inflight.set(id, { job, index, firstBlock, blockCount, postedAt: epochNow() });
        if (slot.outstandingBlocks === 0) worker.ref();
        slot.outstandingBlocks += blockCount;
        const request: WorkerRequest = { id, ciphertext: run.buffer, blockBytes };
        worker.postMessage(request, [run.buffer]);
        firstBlock += blockCount;
      });
    });
  }

  const pool: CryptoPool = {
    threads,
    get crashes() {
      return crashes;
    },
    async decrypt(base64: string): Promise<Buffer> {
      if (closing) throw closedError();
      const { ciphertext, blocks } = traceIntake('decode', () => {
        const bytes = decodeStrictBase64(base64);
        return { ciphertext: bytes, blocks: splitBlocks(bytes, blockBytes) };
      });
      if (blocks.length <= inlineMaxBlocks) {
        return traceIntake('decrypt', () => Buffer.concat(blocks.map((block) => decryptBlock(block, privateKey))));
      }
      return traceIntake('handoff', () => dispatch(ciphertext, blocks));
    },
    close(): Promise<void> {
      closing ??= (async () => {
        const error = closedError();
        const workers: Worker[] = [];
        for (const slot of slots) {
          for (const slice of slot.inflight.values()) fail(slice.job, error);
          slot.inflight.clear();
          slot.outstandingBlocks = 0;
          if (slot.worker) workers.push(slot.worker);
        }
        await Promise.all(workers.map((worker) => worker.terminate()));
      })();
      return closing;
    },
  };

  for (const slot of slots) spawn(slot);
  slotsByPool.set(pool, slots);
  return pool;
}

function closedError(): CryptoPoolError {
  return new CryptoPoolError('closed', 'the crypto pool is closed; create a new one to decrypt more payloads.');
}

/** Tests and diagnostics only: the pool's live workers (a slot whose worker died and was not yet respawned is skipped). */
export function cryptoPoolWorkersForTesting(pool: CryptoPool): Worker[] {
  return (slotsByPool.get(pool) ?? []).flatMap((slot) => (slot.worker ? [slot.worker] : []));
}
