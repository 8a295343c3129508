// One CLI command's use of the engine: opens it from the global options (--db, --profile, --credentials), calls
// it ONLY through the contract (parseRequest, then the handler; Result errors become exit codes), asks for
// passphrases and secrets (hidden prompt on a terminal, environment otherwise), and prints --json or text.
// Invariant: no passphrase, secret or key is ever printed, logged or put in an error line.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { version as packageVersion } from '../../package.json';
import { callMethod, escapeSingleLine, parseRequest, type ContractError, type ContractEvent, type MethodName, type RequestOf, type ResponseOf } from '../contract';
import type { Engine, EngineOptions } from '../core/engine';
import { ContractFailure, UsageError } from './errors';
import { formatTime } from './format';
import type { CliIo } from './io';
import { jsonText } from './safe-output';

/** Environment variables the CLI reads. */
export const ENV = {
  /** The acting operator's passphrase when stdin is not a terminal. */
  passphrase: 'TREASURY_DESK_PASSPHRASE',
  /** A new passphrase (`operator found` for the first admin, `operator accept`, `operator passphrase`) without a terminal. */
  newPassphrase: 'TREASURY_DESK_NEW_PASSPHRASE',
  /** The second founding admin's new passphrase (`operator found --admin A --admin B`) without a terminal. */
  newPassphrase2: 'TREASURY_DESK_NEW_PASSPHRASE_2',
  /** The one-time invitation code (`operator accept`) when stdin is not a terminal. */
  invitationCode: 'TREASURY_DESK_INVITATION_CODE',
  /** The merchant secret (`profile add` without --secret-file) when stdin is not a terminal. */
  secret: 'TREASURY_DESK_SECRET',
  /** Keychain service name (tests, or several desks under one user); default `treasury-desk`. */
  keychainService: 'TREASURY_DESK_KEYCHAIN_SERVICE',
} as const;

/** Options every engine command accepts, before or after the command name. */
export interface GlobalOptions {
  readonly json?: boolean;
  readonly profile?: string;
  readonly credentials?: string;
  readonly db?: string;
}

/** Adds the global options to a command (the program and every engine command carry them; see globalOptions). */
export function addEngineOptions(command: Command): Command {
  return command
    .option('--json', 'print the answer as JSON on stdout')
    .option('--profile <name>', 'act on this merchant profile instead of the active one')
    .option('--credentials <file>', 'headless: read the four credentials from this credentials.json instead of the keychain (less safe, see README)')
    .option('--db <path>', 'the desk database (default: the per-user application-data folder)');
}

/** The global options wherever they were written: the program's and the command's own, merged. */
export function globalOptions(command: Command): GlobalOptions {
  const merged = command.optsWithGlobals<GlobalOptions>();
  return { ...merged, ...command.opts<GlobalOptions>() };
}

/** A request whose fields may still be raw text from argv: the contract's schema judges them. */
export type LooseRequest<M extends MethodName> = { readonly [K in keyof RequestOf<M>]?: unknown };

/** How request fields are called on the command line, for zod's field messages (`toAddress` → `--to`). */
export type FieldLabels = Readonly<Record<string, string>>;

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The option a request field came from: labels first, then `as.*` → --as / passphrase, then --kebab-case. */
export function fieldLabel(field: string, labels: FieldLabels = {}): string {
  const exact = labels[field];
  if (exact !== undefined) return exact;
  const parts = field.split('.');
  const [first = field, second] = parts[0] === 'credentials' ? parts.slice(1) : parts;
  const byFirst = labels[first];
  if (byFirst !== undefined) return byFirst;
  if (first === 'as') return second === 'passphrase' ? 'the passphrase' : '--as';
  if (first === 'passphrase') return 'the new passphrase';
  if (first === '(request)') return 'the request';
  return `--${kebab(first)}`;
}

/** A one-line message for a contract error: request-schema problems named by option. */
function failureMessage(error: ContractError, labels: FieldLabels | undefined, fromSchema: boolean): string {
  if (!fromSchema || !error.fields) return error.message;
  return Object.entries(error.fields)
    .map(([field, message]) => `${fieldLabel(field, labels)}: ${message}`)
    .join('; ');
}

/** Stands in for a passphrase not yet asked while a request's other fields are checked. */
export const PLACEHOLDER = 'placeholder passphrase';

export class EngineSession {
  constructor(
    readonly engine: Engine,
    readonly io: CliIo,
    readonly options: GlobalOptions & { readonly dbPath: string },
    /** The desk's reporting time zone (settings/setReportingTimeZone): every time printed for people is in it. */
    readonly timeZone: string,
  ) {}

  /** An instant for people, in the reporting zone with its offset (`2024-05-01 14:00:00+02:00`). */
  time(ms: number | null): string {
    return formatTime(ms, this.timeZone);
  }

  get json(): boolean {
    return this.options.json === true;
  }

  /**
   * Checks `request` against the method's schema (bad input: exit 2, nothing runs), calls the engine (callMethod), and
   * answers the value or throws ContractFailure.
   */
  async run<M extends MethodName>(method: M, request: LooseRequest<M>, labels?: FieldLabels): Promise<ResponseOf<M>> {
    this.check(method, request, labels);
    const result = await callMethod(this.engine.handlers, method, request);
    if (!result.ok) throw new ContractFailure(result.error, failureMessage(result.error, labels, false));
    return result.value;
  }

  /** Checks a request against the method's schema only (exit 2 on bad input); nothing runs. */
  check<M extends MethodName>(method: M, request: LooseRequest<M>, labels?: FieldLabels): void {
    const parsed = parseRequest(method, request);
    if (!parsed.ok) throw new ContractFailure(parsed.error, failureMessage(parsed.error, labels, true), true);
  }

  /**
   * For a method with `as`: checks the request first (bad input is exit 2 before anyone types a passphrase), then
   * asks for the operator's passphrase and runs it.
   */
  async runAs<M extends MethodName>(method: M, request: LooseRequest<M>, operator: string, labels?: FieldLabels): Promise<ResponseOf<M>> {
    this.check(method, { ...request, as: { operator, passphrase: PLACEHOLDER } } as LooseRequest<M>, labels);
    const as = await this.acting(operator);
    return this.run(method, { ...request, as } as LooseRequest<M>, labels);
  }

  onEvent(listener: (event: ContractEvent) => void): () => void {
    return this.engine.onEvent(listener);
  }

  /** Prints `value` as JSON with --json, otherwise runs `text` (which prints the human form). */
  output(value: unknown, text: () => void): void {
    if (this.json) printJson(this.io, value);
    else text();
  }

  /** One line for people on stdout (text mode only); a newline inside it shows as ⟨U+000A⟩. */
  say(line: string): void {
    if (!this.json) this.io.stdout(`${escapeSingleLine(line)}\n`);
  }

  /**
   * What is about to be decided, shown before the passphrase is asked (the request's fingerprint, the proposal): on
   * stdout in text mode; with --json on stderr, and only when a prompt follows, so stdout stays one JSON document.
   */
  beforeAsking(line: string): void {
    if (!this.json) this.io.stdout(`${escapeSingleLine(line)}\n`);
    else if (this.io.stdinIsTTY === true) this.io.stderr(`${escapeSingleLine(line)}\n`);
  }

  /** A warning on stderr, in both modes. */
  warn(line: string): void {
    this.io.stderr(`treasury-desk: warning: ${escapeSingleLine(line)}\n`);
  }

  /** Who is acting: the operator's name and their passphrase (asked now). */
  async acting(operator: string): Promise<{ operator: string; passphrase: string }> {
    return { operator, passphrase: await askPassphrase(this.io, operator) };
  }
}

/** The answer as JSON; control and text-direction characters as JSON escapes such as \u001b (it parses back to the same value). */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${jsonText(value, 2)}\n`);
}

export function envOf(io: CliIo): Readonly<Record<string, string | undefined>> {
  return io.env ?? process.env;
}

/** The desk database a command acts on: --db, or the default one in the data folder (whose logs/ holds the log). */
export async function deskDatabasePath(command: Command, io: CliIo): Promise<string> {
  const { defaultDatabasePath } = await import('../core/store/paths');
  return resolve(globalOptions(command).db ?? defaultDatabasePath(envOf(io)));
}

/** Opens the engine for one command, runs `work`, and always closes the engine. */
export async function withSession<T>(
  command: Command,
  io: CliIo,
  work: (session: EngineSession) => Promise<T>,
  extra?: (dbPath: string) => Partial<EngineOptions>,
): Promise<T> {
  const options = globalOptions(command);
  const env = envOf(io);
  // Loaded on demand: commands without the engine never load SQLite or the keychain module.
  const [{ createEngine }, { KeychainVault }, { toContractError }, { appLog }] = await Promise.all([
    import('../core/engine'),
    import('../core/secrets'),
    import('../core/kernel/errors'),
    import('../core/log'),
  ]);
  const dbPath = await deskDatabasePath(command, io);
  const service = env[ENV.keychainService];
  let engine: Engine;
  try {
    engine = await createEngine({
      dbPath,
      vault: new KeychainVault(service !== undefined && service !== '' ? { service } : {}),
      cryptoThreads: 2,
      appVersion: packageVersion,
      ...(options.credentials !== undefined ? { credentialsFile: resolve(options.credentials) } : {}),
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
      ...(extra ? extra(dbPath) : {}),
    });
  } catch (error) {
    const mapped = toContractError(error);
    if (mapped.code !== 'internal') throw new ContractFailure(mapped);
    appLog.error('cli: the desk database could not be opened', { error });
    const reason = error instanceof Error ? error.message : String(error);
    throw new ContractFailure({ code: 'internal', message: `cannot open the desk database ${dbPath}: ${reason}` });
  }
  try {
    const state = await engine.handlers['session/state']({});
    if (!state.ok) throw new ContractFailure(state.error);
    const session = new EngineSession(engine, io, { ...options, dbPath }, state.value.reportingTimeZone);
    for (const warning of engine.warnings) session.warn(warning);
    return await work(session);
  } finally {
    await engine.close();
  }
}

// ---- prompts ----------------------------------------------------------------------------------------------------

interface SecretSource {
  readonly question: string;
  readonly envVar: string;
  /** What is asked for, e.g. "the passphrase of bob". */
  readonly what: string;
}

/** A secret from a hidden prompt when stdin is a terminal, otherwise from the environment variable. */
export async function secretInput(io: CliIo, source: SecretSource): Promise<string> {
  if (io.stdinIsTTY === true && io.prompt) {
    const answer = await io.prompt(source.question, { hidden: true });
    if (answer === '') throw new UsageError(`${source.what} is empty.`);
    return answer;
  }
  const value = envOf(io)[source.envVar];
  if (value === undefined || value === '') {
    throw new UsageError(`${source.what} is needed: type it at a terminal, or set ${source.envVar} when stdin is not a terminal.`);
  }
  return value;
}

export function askPassphrase(io: CliIo, operator: string): Promise<string> {
  return secretInput(io, { question: `Passphrase of ${operator}: `, envVar: ENV.passphrase, what: `the passphrase of ${operator}` });
}

/**
 * A new passphrase for `operator`: typed twice on a terminal, or read from `envVar` (TREASURY_DESK_NEW_PASSPHRASE
 * unless told; the second founding admin's is TREASURY_DESK_NEW_PASSPHRASE_2).
 */
export async function askNewPassphrase(io: CliIo, operator: string, envVar: string = ENV.newPassphrase): Promise<string> {
  const source = { question: `New passphrase for ${operator}: `, envVar, what: `a new passphrase for ${operator}` };
  const first = await secretInput(io, source);
  if (io.stdinIsTTY === true && io.prompt) {
    const again = await io.prompt(`Type it again: `, { hidden: true });
    if (again !== first) throw new UsageError('the two passphrases typed differ; nothing was changed.');
  }
  return first;
}

/** The one-time invitation code an admin handed over: a hidden prompt, or TREASURY_DESK_INVITATION_CODE. */
export function askInvitationCode(io: CliIo, operator: string): Promise<string> {
  return secretInput(io, { question: `Invitation code for ${operator}: `, envVar: ENV.invitationCode, what: `the invitation code for ${operator}` });
}
