// `treasury-desk callbacks listen`: runs the local callback receiver (PROTOCOL §10) for the active profile until
// SIGINT or SIGTERM, then stops it cleanly. Every callback is verified by the engine before anything is stored. A
// listen address beyond loopback (--host 0.0.0.0) needs an admin (--as, asked for a passphrase) and is audited. When it
// stops it prints the refused callbacks it kept (callbacks/refusals: newest first, with the check that refused each and
// counts per check); they live in this process's memory only, so no other command can list them.
import type { Command } from 'commander';
import { CALLBACK_REFUSAL_WORDS, CALLBACK_REFUSALS_KEPT, escapeSingleLine, type CallbackListenerState, type CallbackRefusalsView } from '../../contract';
import { parsePort } from '../args';
import { addEngineOptions, printJson, withSession, type EngineSession } from '../engine-session';
import { plural, table } from '../format';
import { untilSignalled } from '../io';
import type { CommandRegistrar } from '../program';

function counts(state: CallbackListenerState): string {
  return `${state.received} received, ${state.refused} refused`;
}

/** The refused callbacks as text: counts per check, then the list, newest first (cells escaped by `table`). */
function refusalsText(session: EngineSession, view: CallbackRefusalsView): string {
  if (view.total === 0) return '';
  const counts = view.counts.map((entry) => `${entry.code} ${entry.count}`).join(', ');
  const shown = view.refusals.length < view.total ? ` (the last ${view.refusals.length} are listed, at most ${view.kept} are kept)` : '';
  return (
    `refused callbacks: ${plural(view.total, 'refusal')} by check: ${counts}${shown}\n` +
    table(
      ['received', 'source', 'status', 'code', 'check', 'reason'],
      view.refusals.map((refusal) => [session.time(refusal.at), refusal.source, String(refusal.status), refusal.code, CALLBACK_REFUSAL_WORDS[refusal.code], refusal.reason]),
    )
  );
}

export const registerCallbackCommands: CommandRegistrar = (program, io) => {
  const callbacks = program.command('callbacks').description('The local receiver for the service’s callbacks');

  addEngineOptions(
    callbacks
      .command('listen')
      .description(
        'Receive callbacks until Ctrl+C (SIGINT) or SIGTERM; the URL printed is what the platform must call. On stop, lists the refused ' +
          `callbacks (the last ${CALLBACK_REFUSALS_KEPT}, kept in memory only) with the check that refused each`,
      )
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
      const refusals = await session.run('callbacks/refusals', {});
      if (session.json) printJson(io, { ...stopped, signal, refusals });
      else io.stdout(`stopped (${signal}): ${counts(stopped)}\n${refusalsText(session, refusals)}`);
    });
  });
};
