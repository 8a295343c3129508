// `treasury-desk completion bash|zsh|fish`: prints the shell completion script generated from this very program's
// command tree (completion.ts), so it always matches the commands of the installed version. Opens no desk.
import type { Command } from 'commander';
import { version as packageVersion } from '../../../package.json';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../completion';
import type { CommandRegistrar } from '../program';

function root(command: Command): Command {
  let current = command;
  while (current.parent) current = current.parent;
  return current;
}

export const registerCompletionCommand: CommandRegistrar = (program, io) => {
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish (see the README for installing it)')
    .addArgument(program.createArgument('<shell>', 'the shell: bash, zsh or fish').choices(COMPLETION_SHELLS))
    .action((shell: CompletionShell, _options: unknown, command: Command) => {
      io.stdout(completionScript(root(command), shell, packageVersion));
    });
};
