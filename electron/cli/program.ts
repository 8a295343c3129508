// Builds the `treasury-desk` command tree and runs it, mapping every outcome to an exit code (see errors.ts): 0
// success, 1 failed or refused, 2 bad input or usage; every error is one line on stderr prefixed `treasury-desk: `,
// or with --json anywhere on the command line (commander's own usage errors included) one JSON object on stderr.
// Every write goes through safeIo (safe-output.ts): no control or text-direction character reaches a terminal raw.
import { Command, CommanderError } from 'commander';
import { version as packageVersion } from '../../package.json';
import { unexpectedErrorMessage } from '../contract/application-log';
import { ProtocolError } from '../protocol/errors';
import { describeFailure, EXIT_SUCCESS, EXIT_USAGE, jsonError, oneLine, UsageError, type Failure } from './errors';
import { processIo, type CliIo } from './io';
import { addEngineOptions, deskDatabasePath } from './engine-session';
import { jsonText, safeIo } from './safe-output';
import { registerAccountingCommands } from './commands/accounting';
import { registerAddressCommands } from './commands/address';
import { registerAddressBookCommands } from './commands/addressbook';
import { registerAuditCommands } from './commands/audit';
import { registerTeamCommands } from './commands/team';
import { registerCallbackCommands } from './commands/callbacks';
import { registerCompletionCommand } from './commands/completion';
import { registerConnectionCommand } from './commands/connection';
import { registerDemoCommand } from './commands/demo';
import { registerDepositCommands } from './commands/deposits';
import { registerDiagnosticsCommand } from './commands/diagnostics';
import { registerLabelsCommands } from './commands/labels';
import { registerWebhooksCommands } from './commands/webhooks';
import { registerOperatorCommands } from './commands/operator';
import { registerPayoutCommands } from './commands/payouts';
import { registerPayeeCommands } from './commands/payees';
import { registerPolicyCommands } from './commands/policy';
import { registerSendingCommands } from './commands/sending';
import { registerRadarCommands } from './commands/radar';
import { registerGovernanceCommands } from './commands/governance';
import { registerProfileCommands } from './commands/profile';
import { registerReconcileCommand } from './commands/reconcile';
import { registerSandboxCommands } from './commands/sandbox';
import { registerSelfcheckCommand } from './commands/selfcheck';
import { registerSettingsCommands } from './commands/settings';
import { registerStatementCommand } from './commands/statement';
import { registerSyncCommands } from './commands/sync';
import { registerWireCommands } from './commands/wire';
import { registerWithdrawCommands } from './commands/withdraw';

export type CommandRegistrar = (program: Command, io: CliIo, setExitCode: (code: number) => void) => void;

const REGISTRARS: readonly CommandRegistrar[] = [
  registerProfileCommands,
  registerSelfcheckCommand,
  registerConnectionCommand,
  registerSyncCommands,
  registerDepositCommands,
  registerAddressCommands,
  registerOperatorCommands,
  registerWithdrawCommands,
  registerPayoutCommands,
  registerPayeeCommands,
  registerReconcileCommand,
  registerStatementCommand,
  registerAccountingCommands,
  registerPolicyCommands,
  registerSendingCommands,
  registerRadarCommands,
  registerGovernanceCommands,
  registerSettingsCommands,
  registerAuditCommands,
  registerTeamCommands,
  registerCallbackCommands,
  registerDemoCommand,
  registerWireCommands,
  registerSandboxCommands,
  registerDiagnosticsCommand,
  registerLabelsCommands,
  registerWebhooksCommands,
  registerAddressBookCommands,
  registerCompletionCommand,
];

/** "a, b or c" */
function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * Every command that only groups subcommands (the program, `withdraw`, `profile`...) answers a missing or unknown
 * subcommand with a one-line usage error (exit 2) instead of commander's multi-line help.
 */
function requireSubcommands(command: Command): void {
  if (command.commands.length > 0) {
    const path = commandPath(command);
    const names = command.commands.map((sub) => sub.name()).filter((name) => name !== 'help');
    const help = path === '' ? 'treasury-desk --help' : `treasury-desk ${path} --help`;
    command.allowExcessArguments(true).action((_options: unknown, self: Command) => {
      const [first] = self.args;
      if (first === undefined) {
        throw new UsageError(`${path === '' ? 'a command is needed' : `${path} needs a subcommand`}: ${listWords(names)} (see "${help}").`);
      }
      throw new UsageError(`unknown command '${path === '' ? first : `${path} ${first}`}': use ${listWords(names)} (see "${help}").`);
    });
  }
  for (const sub of command.commands) requireSubcommands(sub);
}

/** Commander's own messages ("error: unknown option '--jsn'") as one `treasury-desk: ` line. */
function commanderLine(text: string): string {
  return `treasury-desk: ${oneLine(text).replace(/^error:\s*/, '')}`;
}

/** `treasury-desk 0.1.0`: the version of package.json, which the app and its installers carry too. */
export function versionLine(): string {
  return `treasury-desk ${packageVersion}`;
}

/**
 * Before any command runs: the application log goes to the data folder of the desk the command names (--db, or the
 * default one), so a failure of this run is recorded beside that desk. Nothing is written unless something is logged.
 * The crash reports of that data folder are where `diagnostics` reads them.
 */
async function startCommandLog(command: Command, io: CliIo): Promise<void> {
  const [{ appLog, logFolderFor }, { crashReportFolderFor, crashReports }, databasePath] = await Promise.all([import('../core/log'), import('../core/crash-reports'), deskDatabasePath(command, io)]);
  appLog.configure({ folder: logFolderFor(databasePath), face: 'cli' });
  // Read by `diagnostics`: the app's crash reports beside the same desk (the CLI writes none of its own).
  crashReports.configure(crashReportFolderFor(databasePath), packageVersion);
}

/**
 * Records a failure nobody expected in the application log (redacted); answers the failure with its message redacted
 * too, and its line saying where the log is.
 */
async function recordUnexpected(error: unknown, running: string | undefined, failure: Failure): Promise<Failure> {
  try {
    const { appLog, secretRedactor } = await import('../core/log');
    appLog.error(`cli: ${running ?? 'treasury-desk'} failed unexpectedly`, { command: running ?? null, error });
    const message = secretRedactor.redactText(failure.message);
    return { ...failure, message, line: unexpectedErrorMessage(message) };
  } catch {
    return failure;
  }
}

/** Whether the command line asks for JSON: `--json` anywhere before a `--` (the one decision for errors too). */
export function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/** `treasury-desk withdraw approve --help`: the help of the deepest command the arguments name. */
function helpFor(program: Command, args: readonly string[]): string {
  let current = program;
  for (const arg of args) {
    if (arg === '--') break;
    const sub = current.commands.find((command) => command.name() === arg || command.aliases().includes(arg));
    if (sub !== undefined) current = sub;
  }
  const path = commandPath(current);
  return path === '' ? 'treasury-desk --help' : `treasury-desk ${path} --help`;
}

/**
 * The program; with `json`, commander's own errors are not written here: runCli writes them as the JSON error.
 */
export function buildProgram(anyIo: CliIo, setExitCode: (code: number) => void, onCommand?: (path: string) => void, json = false): Command {
  const io = safeIo(anyIo);
  const program = new Command('treasury-desk')
    .description('Treasury Desk: the command-line face of the merchant treasury engine.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(`${oneLine(text)}\n`),
      outputError: (text, write) => (json ? undefined : write(commanderLine(text))),
    })
    .showHelpAfterError(false)
    .helpCommand(true)
    .version(versionLine(), '-V, --version', 'print the version and exit');
  addEngineOptions(program);
  program.hook('preAction', async (_program, actionCommand) => {
    onCommand?.(commandPath(actionCommand));
    await startCommandLog(actionCommand, io);
  });
  for (const register of REGISTRARS) register(program, io, setExitCode);
  requireSubcommands(program);
  // Every subcommand inherits the same overrides so their parse errors also exit 2 with one line.
  const applyOverrides = (command: Command): void => {
    for (const sub of command.commands) {
      sub.exitOverride().configureOutput(program.configureOutput()).showHelpAfterError(false);
      applyOverrides(sub);
    }
  };
  applyOverrides(program);
  return program;
}

/** Runs the CLI with `args` (without node and script path); resolves to the exit code. Never throws. */
export async function runCli(args: readonly string[], anyIo: CliIo = processIo): Promise<number> {
  const io = safeIo(anyIo);
  const json = wantsJson(args);
  let exitCode = EXIT_SUCCESS;
  let running: string | undefined;
  let program: Command | undefined;
  try {
    program = buildProgram(
      io,
      (code) => (exitCode = code),
      (path) => (running = path),
      json,
    );
    await program.parseAsync([...args], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT_SUCCESS;
      if (json) {
        const message = oneLine(error.message).replace(/^error:\s*/, '');
        writeJsonError(io, { exitCode: EXIT_USAGE, line: message, code: 'invalidInput', message }, program, args);
      }
      return EXIT_USAGE;
    }
    // The engine's one protocol-to-contract mapping, loaded only for a raw protocol error (the wire commands).
    const toContractError = error instanceof ProtocolError ? (await import('../core/kernel/errors')).toContractError : undefined;
    const described = describeFailure(error, (protocolError) => toContractError?.(protocolError).code ?? 'invalidInput');
    const failure = described.unexpected === true ? await recordUnexpected(error, running, described) : described;
    if (json) writeJsonError(io, failure, program, args);
    else io.stderr(`treasury-desk: ${oneLine(failure.line)}\n`);
    return failure.exitCode;
  }
}

/** The one JSON object on stderr for a failure under --json (JSON escapes every control character itself). */
function writeJsonError(io: CliIo, failure: Failure, program: Command | undefined, args: readonly string[]): void {
  io.stderr(`${jsonText(jsonError(failure, program === undefined ? 'treasury-desk --help' : helpFor(program, args)))}\n`);
}
