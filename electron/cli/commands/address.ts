// `treasury-desk address ...`: offline address validation per PROTOCOL §11 (more subcommands come with the engine).
// `address validate`: exit 0 valid, 1 invalid (one line on stderr, or the JSON answer on stdout), 2 bad usage.
import { CHAINS, CHAIN_INFO, isChain, validateAddress } from '../../chains';
import { EXIT_NEGATIVE, NegativeAnswer, UsageError } from '../errors';
import type { CommandRegistrar } from '../program';

interface ValidateOptions {
  readonly chain: string;
  readonly json?: boolean;
}

export const registerAddressCommands: CommandRegistrar = (program, io, setExitCode) => {
  const address = program.command('address').description('Deposit and destination addresses');
  address
    .command('validate')
    .description('Check an address against the chain rules of PROTOCOL §11, offline. Exit 0 valid, 1 invalid, 2 bad usage.')
    // A raw masterchain TON address starts with "-1:"; let it through as the argument instead of an unknown option.
    .allowUnknownOption()
    .requiredOption('--chain <chain>', `chain whose rules apply: ${CHAINS.join(', ')}`)
    .option('--json', 'print {valid, chain, code?, reason?, normalized?, notes?} as JSON on stdout; exit codes unchanged')
    .argument('<address>', 'the address exactly as it would be used (surrounding spaces count as a mistake)')
    .action(async (text: string, options: ValidateOptions) => {
      if (/^-(?![0-9])/.test(text)) throw new UsageError(`unknown option '${text}'.`);
      const chain = options.chain;
      if (!isChain(chain)) throw new UsageError(`unknown chain '${chain}': use one of ${CHAINS.join(', ')}.`);
      const check = validateAddress(chain, text);
      const name = CHAIN_INFO[chain].displayName;
      if (options.json === true) {
        const answer = check.valid
          ? { valid: true, chain, normalized: check.normalized, notes: check.notes }
          : { valid: false, chain, code: check.code, reason: check.reason };
        io.stdout(`${JSON.stringify(answer)}\n`);
        if (!check.valid) setExitCode(EXIT_NEGATIVE);
        return;
      }
      if (!check.valid) throw new NegativeAnswer(`invalid ${name} address: ${check.reason}`);
      const canonical = check.normalized === text ? '' : ` (canonical form: ${check.normalized})`;
      io.stdout(`valid ${name} address ${text}${canonical}\n`);
      for (const note of check.notes) io.stdout(`note: ${note}\n`);
    });
};
