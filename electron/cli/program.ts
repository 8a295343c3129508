// Builds the `treasury-desk` command tree and runs it, mapping every outcome to an exit code (see errors.ts).
import { Command, CommanderError } from 'commander';
import { describeFailure, EXIT_SUCCESS, EXIT_USAGE, oneLine } from './errors';
import { processIo, type CliIo } from './io';
import { registerAddressCommands } from './commands/address';
import { registerWireCommands } from './commands/wire';
import { registerSandboxCommands } from './commands/sandbox';

export type CommandRegistrar = (program: Command, io: CliIo, setExitCode: (code: number) => void) => void;

const REGISTRARS: readonly CommandRegistrar[] = [registerWireCommands, registerAddressCommands, registerSandboxCommands];

/** Runs the CLI with `args` (without node and script path); resolves to the exit code. Never throws. */
export async function runCli(args: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = EXIT_SUCCESS;
  const program = new Command('treasury-desk')
    .description('Treasury Desk: the command-line face of the merchant treasury engine.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      // Commander's own usage errors: keep them to one line, exit 2.
      writeErr: (text) => io.stderr(`${oneLine(text)}\n`),
      outputError: (text, write) => write(oneLine(text)),
    })
    .showHelpAfterError(false);
  for (const register of REGISTRARS) register(program, io, (code) => (exitCode = code));
  // Every subcommand inherits the same overrides so their parse errors also exit 2 with one line.
  const applyOverrides = (command: Command): void => {
    for (const sub of command.commands) {
      sub.exitOverride().configureOutput(program.configureOutput());
      applyOverrides(sub);
    }
  };
  applyOverrides(program);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return EXIT_SUCCESS;
      }
      return EXIT_USAGE;
    }
    const failure = describeFailure(error);
    io.stderr(`treasury-desk: ${oneLine(failure.line)}\n`);
    return failure.exitCode;
  }
}
