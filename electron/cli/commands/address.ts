// `treasury-desk address ...`: deposit addresses (create, list, qr) through the engine, and offline validation.
// `address validate`: exit 0 valid, 1 invalid (one line on stderr, or the JSON answer on stdout), 2 bad usage.
import type { Command } from 'commander';
import { extname, resolve } from 'node:path';
import { ADDRESS_TYPES, CHAINS, CHAIN_INFO, isChain, validateAddress } from '../../chains';
import { escapeSingleLine, type DepositAddressView } from '../../contract';
import { addEngineOptions, globalOptions, withSession, type EngineSession } from '../engine-session';
import { EXIT_NEGATIVE, NegativeAnswer, UsageError } from '../errors';
import { table } from '../format';
import { writeFileArgument, type CliIo } from '../io';
import type { CommandRegistrar } from '../program';
import { jsonText } from '../safe-output';

interface ValidateOptions {
  readonly chain: string;
}

function registerValidate(address: Command, io: CliIo, setExitCode: (code: number) => void): void {
  address
    .command('validate')
    .description('Check an address against the chain rules of PROTOCOL §11, offline. Exit 0 valid, 1 invalid, 2 bad usage.')
    // A raw masterchain TON address starts with "-1:"; let it through as the argument instead of an unknown option.
    .allowUnknownOption()
    .requiredOption('--chain <chain>', `chain whose rules apply: ${CHAINS.join(', ')}`)
    .option('--json', 'print {valid, chain, code?, reason?, normalized?, notes?} as JSON on stdout; exit codes unchanged')
    .argument('<address>', 'the address exactly as it would be used (surrounding spaces count as a mistake)')
    .action(async (text: string, options: ValidateOptions, command: Command) => {
      if (/^-(?![0-9])/.test(text)) throw new UsageError(`unknown option '${text}'.`);
      const chain = options.chain;
      if (!isChain(chain)) throw new UsageError(`unknown chain '${chain}': use one of ${CHAINS.join(', ')}.`);
      const check = validateAddress(chain, text);
      const name = CHAIN_INFO[chain].displayName;
      // --json may have been taken by the program (it is a global option too).
      if (globalOptions(command).json === true) {
        const answer = check.valid
          ? { valid: true, chain, normalized: check.normalized, notes: check.notes }
          : { valid: false, chain, code: check.code, reason: check.reason };
        io.stdout(`${jsonText(answer)}\n`);
        if (!check.valid) setExitCode(EXIT_NEGATIVE);
        return;
      }
      if (!check.valid) throw new NegativeAnswer(`invalid ${name} address: ${check.reason}`, { code: 'invalidInput', whatToDo: 'Check the address with its owner (copy it, do not type it) and the chain it is on.' });
      const canonical = check.normalized === text ? '' : ` (canonical form: ${check.normalized})`;
      io.stdout(`valid ${name} address ${text}${canonical}\n`);
      for (const note of check.notes) io.stdout(`${escapeSingleLine(`note: ${note}`)}\n`);
    });
}

function printAddress(session: EngineSession, created: DepositAddressView): void {
  session.output(created, () => {
    session.say(created.address);
    session.say(`type ${created.addressType} (chains: ${created.chains.join(', ')}), userOrder ${created.userOrder}`);
    for (const note of created.notes) session.say(`note: ${note}`);
  });
}

/** PNG or SVG from the file name; the PNG comes as a data: URL and is written as bytes. */
function qrFormat(path: string): 'png' | 'svg' {
  const extension = extname(path).toLowerCase();
  if (extension === '.png') return 'png';
  if (extension === '.svg') return 'svg';
  throw new UsageError(`--out must end in .png or .svg; got ${JSON.stringify(path.slice(-40))}.`);
}

function qrBytes(format: 'png' | 'svg', data: string): Uint8Array | string {
  if (format === 'svg') return data;
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(data);
  if (!match?.[1]) throw new NegativeAnswer('the engine answered a QR code that is not a PNG data URL');
  return Buffer.from(match[1], 'base64');
}

export const registerAddressCommands: CommandRegistrar = (program, io, setExitCode) => {
  const address = program.command('address').description('Deposit addresses (create, list, QR codes) and offline address validation');

  addEngineOptions(
    address
      .command('create')
      .description('Ask the service for a deposit address and cache it')
      .requiredOption('--type <type>', `address type: ${ADDRESS_TYPES.join(', ')}`)
      .option('--user-order <id>', 'your order number for it (1 to 64 of A-Z a-z 0-9 _ -); default: a new one')
      .requiredOption('--as <operator>', 'the operator doing it (asked for a passphrase)'),
  ).action(async (options: { readonly type: string; readonly userOrder?: string; readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const created = await session.runAs(
        'addresses/create',
        { addressType: options.type, ...(options.userOrder !== undefined ? { userOrder: options.userOrder } : {}) },
        options.as,
        { addressType: '--type' },
      );
      printAddress(session, created);
    });
  });

  addEngineOptions(address.command('list').description('List the cached deposit addresses')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const addresses = await session.run('addresses/list', {});
      session.output(addresses, () => {
        if (addresses.length === 0) return session.say('no deposit addresses yet: create one with "treasury-desk address create --type trx --as NAME"');
        io.stdout(
          table(
            ['address', 'type', 'userOrder', `created (${session.timeZone})`],
            addresses.map((entry) => [entry.address, entry.addressType, entry.userOrder, session.time(entry.createdAt)]),
          ),
        );
      });
    });
  });

  addEngineOptions(
    address
      .command('qr')
      .description('Write a QR code of an address to a PNG or SVG file')
      .argument('<address>', 'the address (use "--" before one that starts with "-")')
      .requiredOption('--out <file>', 'the image file: FILE.png or FILE.svg'),
  ).action(async (text: string, options: { readonly out: string }, command: Command) => {
    const format = qrFormat(options.out);
    const path = resolve(options.out);
    await withSession(command, io, async (session) => {
      const qr = await session.run('addresses/qr', { address: text, format }, { address: 'ADDRESS' });
      const bytes = qrBytes(format, qr.data);
      writeFileArgument(path, bytes, 'QR code');
      session.output({ format, path, content: qr.content, bytes: typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length }, () =>
        session.say(`wrote a ${format.toUpperCase()} QR code of ${qr.content} to ${path}`),
      );
    });
  });

  registerValidate(address, io, setExitCode);
};
