// `treasury-desk wire ...`: encrypt, decrypt, sign and verify exactly as the protocol does, for support engineers.
import type { CommandRegistrar } from '../program';

export const registerWireCommands: CommandRegistrar = (program) => {
  program.command('wire').description('Diagnose the wire protocol (PROTOCOL §2, §3) on captured requests');
};
