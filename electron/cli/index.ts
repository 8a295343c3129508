// Entry point of the `treasury-desk` command: runs the CLI on process arguments and exits with its code.
import { runCli } from './program';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
