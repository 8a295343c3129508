// CLI outcome conventions: exit 0 success, 1 a negative answer or refused operation, 2 bad input or usage; every
// failure becomes exactly one line on stderr. Contract errors keep their code in the line ("forbidden: ...").
import type { ContractError } from '../contract';
import { ProtocolError } from '../protocol/errors';

export const EXIT_SUCCESS = 0;
export const EXIT_NEGATIVE = 1;
export const EXIT_USAGE = 2;

/** Bad input or usage: exit 2 with one clear line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A negative answer (invalid signature, invalid address, refused operation): exit 1 with one clear line. */
export class NegativeAnswer extends Error {
  override readonly name = 'NegativeAnswer';
}

/** A contract method answered an error: invalidInput is exit 2, every other code exit 1. */
export class ContractFailure extends Error {
  override readonly name = 'ContractFailure';
  readonly code: ContractError['code'];
  readonly exitCode: number;
  /** The error's field names (e.g. `amount`, `balance`): which part of a request was refused. */
  readonly fieldNames: readonly string[];
  /** True when the request's schema refused it before the engine saw it (always bad input). */
  readonly fromSchema: boolean;
  constructor(error: ContractError, message: string = error.message, fromSchema = false) {
    super(`${error.code}: ${message}`);
    this.code = error.code;
    this.fieldNames = Object.keys(error.fields ?? {});
    this.fromSchema = fromSchema;
    this.exitCode = error.code === 'invalidInput' ? EXIT_USAGE : EXIT_NEGATIVE;
  }
}

/**
 * Maps any thrown value to an exit code and a single line for stderr. `unexpected` marks a failure nobody planned
 * for (a bug, a broken installation): the CLI records it in the application log and says where that is.
 */
export function describeFailure(error: unknown): { exitCode: number; line: string; unexpected?: true } {
  if (error instanceof UsageError) return { exitCode: EXIT_USAGE, line: error.message };
  if (error instanceof NegativeAnswer) return { exitCode: EXIT_NEGATIVE, line: error.message };
  if (error instanceof ContractFailure) return { exitCode: error.exitCode, line: error.message };
  if (error instanceof ProtocolError) {
    const badInput = error.kind === 'invalidArgument' || error.kind === 'keyFormat' || error.kind === 'cipher';
    return { exitCode: badInput ? EXIT_USAGE : EXIT_NEGATIVE, line: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT_NEGATIVE, line: `unexpected failure: ${message}`, unexpected: true };
}

/** One line: stderr gets no stack traces and no multi-line dumps. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
