// `treasury-desk address ...`: offline address validation per PROTOCOL §11 (more subcommands come with the engine).
import type { CommandRegistrar } from '../program';

export const registerAddressCommands: CommandRegistrar = (program) => {
  program.command('address').description('Deposit and destination addresses');
};
