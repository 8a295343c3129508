// Entry point of the `treasury-desk` command: runs the CLI on process arguments and exits with its code. A reader
// that closes stdout early (`| head`) ends the output quietly instead of crashing the command.
import { quietOnClosedStdout } from './io';
import { runCli } from './program';

quietOnClosedStdout();
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
