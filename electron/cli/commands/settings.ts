// `treasury-desk settings show | timezone [ZONE] --as ADMIN`: the desk-wide settings (idle lock, reporting time zone).
// The reporting time zone is the one the app, this CLI and CSV exports show times in; an admin changes it, audited.
import type { Command } from 'commander';
import { workstationTimeZone } from '../../contract';
import { addEngineOptions, withSession } from '../engine-session';
import { UsageError } from '../errors';
import { fields } from '../format';
import type { CommandRegistrar } from '../program';

function lockText(seconds: number): string {
  return seconds === 0 ? 'never locks by itself' : `after ${seconds} s idle`;
}

export const registerSettingsCommands: CommandRegistrar = (program, io) => {
  const settings = program.command('settings').description('Desk-wide settings: the idle lock and the reporting time zone');

  addEngineOptions(settings.command('show').description('Show the desk-wide settings')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const state = await session.run('session/state', {});
      const value = { lockTimeoutSeconds: state.lockTimeoutSeconds, reportingTimeZone: state.reportingTimeZone };
      session.output(value, () =>
        io.stdout(
          fields([
            ['idle lock (app)', lockText(state.lockTimeoutSeconds)],
            ['reporting time zone', state.reportingTimeZone],
            ['now', session.time(Date.now())],
          ]),
        ),
      );
    });
  });

  addEngineOptions(
    settings
      .command('timezone')
      .argument('[zone]', 'an IANA time zone name such as Europe/Berlin, America/New_York or UTC; "local" for this computer\'s zone')
      .description('Show the reporting time zone, or change it (an admin, --as): the app, the CLI and CSV exports show times in it')
      .option('--as <admin>', 'the admin changing it (asked for a passphrase)'),
  ).action(async (zone: string | undefined, options: { readonly as?: string }, command: Command) => {
    if (zone !== undefined && options.as === undefined) throw new UsageError('changing the reporting time zone needs --as ADMIN (an admin signs the change).');
    if (zone === undefined && options.as !== undefined) throw new UsageError('name the time zone to set, e.g. "treasury-desk settings timezone Europe/Berlin --as ADMIN".');
    await withSession(command, io, async (session) => {
      if (zone === undefined || options.as === undefined) {
        session.output({ reportingTimeZone: session.timeZone }, () => session.say(`reporting time zone: ${session.timeZone} (now ${session.time(Date.now())})`));
        return;
      }
      const timeZone = zone.trim().toLowerCase() === 'local' ? workstationTimeZone() : zone;
      const changed = await session.runAs('settings/setReportingTimeZone', { timeZone }, options.as, { timeZone: 'the time zone' });
      session.output({ reportingTimeZone: changed.reportingTimeZone }, () =>
        session.say(`reporting time zone: ${changed.reportingTimeZone} (the app, the CLI and CSV exports show times in it)`),
      );
    });
  });
};
