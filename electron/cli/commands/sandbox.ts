// `treasury-desk sandbox ...`: runs the local stand-in for the payment service (merchant, public and admin
// interfaces on one loopback port) until Ctrl+C; the same as `npm run sandbox -- ...`.
import { InvalidArgumentError } from 'commander';
import { parsePort } from '../args';
import { UsageError } from '../errors';
import { untilSignalled } from '../io';
import type { CommandRegistrar } from '../program';

interface SandboxCommandOptions {
  readonly host: string;
  readonly port: number;
  readonly data: string;
  readonly auto?: boolean;
  readonly seed?: string;
  readonly timeScale: number;
  readonly allowRemote?: boolean;
}

function parseTimeScale(text: string): number {
  const value = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || !(value > 0)) throw new InvalidArgumentError('a time scale is a positive number such as 60.');
  return value;
}

export const registerSandboxCommands: CommandRegistrar = (program, io) => {
  program
    .command('sandbox')
    .description('Run the local sandbox of the payment service (merchant API, public API, admin API under /sandbox/)')
    .option('--host <address>', 'listen address; loopback only unless --allow-remote', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 8787)
    .option('--data <dir>', 'state folder (SQLite, credentials.json)', '.sandbox')
    .option('--auto', 'advance normal withdrawals to success on timers')
    .option('--seed <name>', 'on first start, fill the folder with demo data (e.g. "demo")')
    .option('--time-scale <factor>', 'divide every timer by this factor (auto-advance, callback retries)', parseTimeScale, 1)
    .option('--allow-remote', 'allow a non-loopback listen address (the admin interface still answers loopback only)')
    .action(async (options: SandboxCommandOptions) => {
      // Loaded on demand: the other commands never load the SQLite native module.
      const { startSandbox, RemoteListenRefusedError } = await import('../../sandbox');
      let sandbox;
      try {
        sandbox = await startSandbox({
          host: options.host,
          port: options.port,
          dataDir: options.data,
          auto: options.auto ?? false,
          timeScale: options.timeScale,
          allowRemote: options.allowRemote ?? false,
          ...(options.seed === undefined ? {} : { seed: options.seed }),
        });
      } catch (error) {
        if (error instanceof RemoteListenRefusedError) throw new UsageError(error.message);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is already in use; pick another with --port.`);
        throw error;
      }
      io.stdout(`Sandbox listening on ${sandbox.baseUrl}\n`);
      io.stdout(`Credentials of merchant ${sandbox.credentials.merchantId}: ${sandbox.credentialsPath}\n`);
      io.stdout(`Admin interface (loopback only): ${sandbox.adminUrl}/health\n`);
      io.stdout('Press Ctrl+C to stop.\n');
      const signal = await (io.untilStopped ?? untilSignalled)();
      await sandbox.close();
      io.stdout(`Sandbox stopped (${signal}).\n`);
    });
};
