// The intake's tracing channels (node:diagnostics_channel), for measuring where a sync's time goes (issue 11, item 10;
// issue 25, item 1): on the calling thread, the work around the RSA decryption (base64 decoding and block splitting,
// handing the blocks to the crypto pool and joining its answers, decryption done inline), the work after it (JSON
// parse and schema validation) and, in the engine, storing verified deposits and keeping their search index; and, per
// slice a pool worker decrypted, when it was posted, started, finished and received. Each costs one check per call
// unless something subscribes: the sync benchmark does. Every traced call is synchronous and none is traced inside
// another.
import { channel, tracingChannel } from 'node:diagnostics_channel';

/**
 * decode: base64 to bytes and blocks; handoff: copying slices to the pool's workers and posting them; join: putting the
 * workers' plaintexts together; decrypt: RSA decryption on the calling thread (payloads too small for the pool, or no
 * pool); validate: parse and schema-check decrypted data; store: a page of deposits and its walk state; index: search
 * index upkeep.
 */
export type IntakeStage = 'decode' | 'handoff' | 'join' | 'decrypt' | 'validate' | 'store' | 'index';

export interface IntakeTrace {
  readonly stage: IntakeStage;
}

export const INTAKE_CHANNEL = 'treasury-desk:intake';

export const intakeTracing = tracingChannel<IntakeTrace, IntakeTrace>(INTAKE_CHANNEL);

/** Runs `work` as one traced piece of the intake. */
export function traceIntake<T>(stage: IntakeStage, work: () => T): T {
  return intakeTracing.traceSync(work, { stage });
}

/**
 * One slice of a payload decrypted by a crypto-pool worker. Times are milliseconds since the epoch, from each thread's
 * `performance.timeOrigin + performance.now()`, so they compare across threads.
 */
export interface PoolSliceTiming {
  /** The worker's place in the pool, 0-based. */
  readonly worker: number;
  readonly blocks: number;
  /** Posted by the calling thread; taken up by the worker; decrypted; the answer handled by the calling thread. */
  readonly postedAt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly receivedAt: number;
}

export const POOL_TIMING_CHANNEL = 'treasury-desk:crypto-pool-slice';

export const poolTiming = channel(POOL_TIMING_CHANNEL);

/** The current time in milliseconds since the epoch, comparable with a worker's (see PoolSliceTiming). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
