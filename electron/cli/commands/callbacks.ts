// `treasury-desk callbacks listen`: runs the local callback receiver (PROTOCOL §10) for the active profile until
// SIGINT or SIGTERM, then stops it cleanly. Every callback is verified by the engine before anything is stored. A
// listen address beyond loopback (--host 0.0.0.0) needs an admin (--as, asked for a passphrase) and is audited.
import type { Command } from 'commander';
import { escapeSingleLine, type CallbackListenerState } from '../../contract';
import { parsePort } from '../args';
import { addEngineOptions, printJson, withSession } from '../engine-session';
import { untilSignalled } from '../io';
import type { CommandRegistrar } from '../program';

function counts(state: CallbackListenerState): string {
  return `${state.received} received, ${state.refused} refused`;
}

export const registerCallbackCommands: CommandRegistrar = (program, io) => {
  const callbacks = program.command('callbacks').description('The local receiver for the service’s callbacks');

  addEngineOptions(
    callbacks
      .command('listen')
      .description('Receive callbacks until Ctrl+C (SIGINT) or SIGTERM; the URL printed is what the platform must call')
      .option('--host <address>', 'listen address (default: the profile’s, else 127.0.0.1)')
      .option('--port <port>', 'port (default: the profile’s, else 8788; 0 picks a free one)', parsePort)
      .option('--as <admin>', 'the admin who lets it listen beyond this machine (needed for a --host other than loopback)'),
  ).action(async (options: { readonly host?: string; readonly port?: number; readonly as?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const request = { ...(options.host !== undefined ? { host: options.host } : {}), ...(options.port !== undefined ? { port: options.port } : {}) };
      const started = options.as === undefined ? await session.run('callbacks/start', request) : await session.runAs('callbacks/start', request, options.as);
      let last = counts(started);
      const unsubscribe = session.onEvent((event) => {
        if (event.type !== 'callbacks/changed' || !event.listener.running) return;
        const now = counts(event.listener);
        if (now === last) return;
        last = now;
        io.stderr(`${escapeSingleLine(`callbacks: ${now}${event.listener.lastError === null ? '' : `; last refusal: ${event.listener.lastError}`}`)}\n`);
      });
      if (session.json) printJson(io, started);
      else io.stdout(`listening for callbacks at ${started.url ?? '?'}\nPress Ctrl+C to stop.\n`);
      const signal = await (io.untilStopped ?? untilSignalled)();
      unsubscribe();
      const stopped = await session.run('callbacks/stop', {});
      if (session.json) printJson(io, { ...stopped, signal });
      else io.stdout(`stopped (${signal}): ${counts(stopped)}\n`);
    });
  });
};
