// CLI outcome conventions: exit 0 success, 1 a negative answer or refused operation, 2 bad input or usage; every
// failure becomes exactly one line on stderr, or under --json exactly one JSON object `{"error": {code, message,
// whatToDo}}` (the contract's error shape plus what to do). Contract errors keep their code in the line ("forbidden: ...").
import { CLOCK_DRIFT_LIMIT_SECONDS, UNEXPECTED_ERROR_ADVICE, type ContractError, type ContractErrorCode } from '../contract';
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
  /** The contract code a JSON error carries: `conflict` (the state does not allow it) unless the thrower knows better. */
  readonly code: ContractErrorCode;
  /** What to do, when the thrower knows better than the code's general advice (e.g. the selfcheck's own guidance). */
  readonly whatToDo: string | undefined;
  constructor(message: string, options: { readonly code?: ContractErrorCode; readonly whatToDo?: string } = {}) {
    super(message);
    this.code = options.code ?? 'conflict';
    this.whatToDo = options.whatToDo;
  }
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
  /** The message without the code in front (the JSON error carries the code in its own field). */
  readonly plainMessage: string;
  readonly serviceReason: string | undefined;
  constructor(error: ContractError, message: string = error.message, fromSchema = false) {
    super(`${error.code}: ${message}`);
    this.code = error.code;
    this.plainMessage = message;
    this.serviceReason = error.serviceReason;
    this.fieldNames = Object.keys(error.fields ?? {});
    this.fromSchema = fromSchema;
    this.exitCode = error.code === 'invalidInput' ? EXIT_USAGE : EXIT_NEGATIVE;
  }
}

/**
 * What a failure is: its exit code, the one line for stderr, and for --json the contract code, the message without the
 * code in front and, when the thrower knew better than the code's advice, what to do. `unexpected` marks a failure
 * nobody planned for (a bug, a broken installation): the CLI records it in the application log and says where that is.
 */
export interface Failure {
  readonly exitCode: number;
  readonly line: string;
  readonly code: ContractErrorCode;
  readonly message: string;
  readonly whatToDo?: string;
  readonly serviceReason?: string;
  readonly unexpected?: true;
}

/**
 * Maps any thrown value to a Failure. Usage errors are `invalidInput` (exit 2, as the contract's invalidInput is); a raw
 * protocol error gets its contract code from the engine's one mapping (core/kernel/errors.ts toContractError), passed in
 * so this file stays free of the engine.
 */
export function describeFailure(error: unknown, protocolCode: (error: ProtocolError) => ContractErrorCode = () => 'invalidInput'): Failure {
  if (error instanceof UsageError) return { exitCode: EXIT_USAGE, line: error.message, code: 'invalidInput', message: error.message };
  if (error instanceof NegativeAnswer) {
    return { exitCode: EXIT_NEGATIVE, line: error.message, code: error.code, message: error.message, ...(error.whatToDo === undefined ? {} : { whatToDo: error.whatToDo }) };
  }
  if (error instanceof ContractFailure) {
    // An internal error's message already ends with the advice; the JSON form says it once, under whatToDo.
    const message = error.code === 'internal' ? withoutAdvice(error.plainMessage) : error.plainMessage;
    return { exitCode: error.exitCode, line: error.message, code: error.code, message, ...(error.serviceReason === undefined ? {} : { serviceReason: error.serviceReason }) };
  }
  if (error instanceof ProtocolError) {
    const badInput = error.kind === 'invalidArgument' || error.kind === 'keyFormat' || error.kind === 'cipher';
    return { exitCode: badInput ? EXIT_USAGE : EXIT_NEGATIVE, line: error.message, code: protocolCode(error), message: error.message };
  }
  const message = `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  return { exitCode: EXIT_NEGATIVE, line: message, code: 'internal', message, unexpected: true };
}

/** `what; the details are in logs/...`: `what` alone (the advice goes under whatToDo). */
export function withoutAdvice(message: string): string {
  const suffix = `; ${UNEXPECTED_ERROR_ADVICE}`;
  return message.endsWith(suffix) ? message.slice(0, -suffix.length) : message;
}

/** The first letter upper-case: advice shared with the app starts mid-sentence. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What to do after each contract error, said for the command line (commands, not screens). `help` is the command's
 * own `treasury-desk ... --help`.
 */
export function whatToDo(code: ContractErrorCode, help: string): string {
  switch (code) {
    case 'invalidInput':
      return `Correct what the message names and run the command again (see "${help}"); nothing was changed.`;
    case 'notFound':
      return 'Check the name or id the message gives (the list commands show what exists), then run the command again.';
    case 'forbidden':
      return 'Ask an operator whose role allows this action to run it with --as NAME ("treasury-desk operator list" shows the roles).';
    case 'wrongPassphrase':
      return 'Check the operator name and passphrase (both are case-sensitive) and run the command again.';
    case 'conflict':
      return 'The desk\'s state does not allow this now: do first what the message says, then run the command again if it still applies.';
    case 'locked':
      return 'Run the command again with --as OPERATOR and that operator\'s passphrase.';
    case 'lockedOut':
      return 'Wait until the time the message gives: each further wrong passphrase makes the wait longer. If the passphrase is lost, an admin gives the operator a new key ("treasury-desk operator rekey").';
    case 'unverified':
      return 'Nothing was sent or changed. Keep this workstation as it is and tell your security officer: the signed statements do not support this decision ("treasury-desk audit verify" names the first bad row).';
    case 'held':
      return 'Nothing was sent: a rule of the policy in force now holds this withdrawal. Do what the message says would release it (cancel and request again, or an admin changes the policy: "treasury-desk policy list" shows it), then submit again.';
    case 'noProfile':
      return 'Import or add a merchant profile ("treasury-desk profile import FILE" or "profile add"), or name one with --profile NAME ("treasury-desk profile list" shows them).';
    case 'keychainUnavailable':
      return 'Unlock the system keychain (your desktop session\'s keyring) and run the command again; on a machine without one, use --credentials FILE (see the README).';
    case 'credentials':
      return 'The service refused the credentials: check them with "treasury-desk selfcheck", and import them again if the platform issued new ones.';
    case 'notWhitelisted':
      return 'Ask the platform to whitelist this workstation\'s public IP address for the merchant account, then run the command again.';
    case 'clockDrift':
      return `Set this computer's clock to synchronise automatically (NTP): the service refuses requests beyond ${CLOCK_DRIFT_LIMIT_SECONDS} s of drift ("treasury-desk selfcheck" measures it).`;
    case 'offline':
      return 'Check the network connection to the service ("treasury-desk connection" says why it is not reachable), then run the command again; the cached records stay readable.';
    case 'service':
      return 'The service refused the request for the reason the message gives: correct what it names, or ask the platform about it.';
    case 'verification':
      return 'An answer from the service failed verification and was discarded: run the command again; if it keeps failing, run "treasury-desk selfcheck" and tell your security officer.';
    case 'ambiguous':
      return 'Do not create the withdrawal again: the desk settles the outcome with the service ("treasury-desk withdraw status ID" shows it).';
    case 'internal':
      return sentence(UNEXPECTED_ERROR_ADVICE);
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

/** The JSON error under --json: the contract's error shape (code, message, serviceReason) plus what to do. */
export interface JsonError {
  readonly error: {
    readonly code: ContractErrorCode;
    readonly message: string;
    readonly whatToDo: string;
    readonly serviceReason?: string;
  };
}

/** The JSON error of a failure; `help` is the failing command's `treasury-desk ... --help`. */
export function jsonError(failure: Failure, help: string): JsonError {
  return {
    error: {
      code: failure.code,
      message: failure.message,
      whatToDo: failure.whatToDo ?? whatToDo(failure.code, help),
      ...(failure.serviceReason === undefined ? {} : { serviceReason: failure.serviceReason }),
    },
  };
}

/** One line: stderr gets no stack traces and no multi-line dumps. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
