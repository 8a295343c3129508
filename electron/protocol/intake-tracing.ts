// The intake's tracing channel (node:diagnostics_channel): the work done on an answer after its decryption (JSON parse
// and schema validation, here) and, in the engine, storing verified deposits and keeping their search index. Costs one
// check per call unless something subscribes: the sync benchmark does, to measure the intake's CPU apart from the RSA
// work (issue 11, item 10). Every traced call is synchronous and none is traced inside another.
import { tracingChannel } from 'node:diagnostics_channel';

/** validate: parse and schema-check decrypted data; store: a page of deposits and its walk state; index: search index upkeep. */
export type IntakeStage = 'validate' | 'store' | 'index';

export interface IntakeTrace {
  readonly stage: IntakeStage;
}

export const INTAKE_CHANNEL = 'treasury-desk:intake';

export const intakeTracing = tracingChannel<IntakeTrace, IntakeTrace>(INTAKE_CHANNEL);

/** Runs `work` as one traced piece of the intake. */
export function traceIntake<T>(stage: IntakeStage, work: () => T): T {
  return intakeTracing.traceSync(work, { stage });
}
