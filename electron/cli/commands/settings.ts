// `treasury-desk settings show | timezone [ZONE] --as ADMIN | stuck-thresholds [--pending-... DURATION] --as ADMIN`: the
// desk-wide settings (idle lock, reporting time zone, how long a withdrawal may stay pending before it counts as stuck).
// The reporting time zone is the one the app, this CLI and CSV exports show times in; an admin changes these, audited.
import type { Command } from 'commander';
import { WATCHED_ORDER_STATUSES, WATCHED_STATUS_TEXT, workstationTimeZone, type StuckThresholdsView, type WatchedOrderStatus } from '../../contract';
import { duration } from '../../core/notifications/texts';
import { parseDuration } from '../args';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { UsageError } from '../errors';
import { fields, table } from '../format';
import type { CommandRegistrar } from '../program';

/** The option of each watched status: --pending-confirm, --pending-transfer, ... */
const STUCK_OPTIONS: Readonly<Record<WatchedOrderStatus, { readonly flag: string; readonly key: string }>> = {
  pendingConfirm: { flag: '--pending-confirm', key: 'pendingConfirm' },
  pendingTransfer: { flag: '--pending-transfer', key: 'pendingTransfer' },
  pendingFinancialConfirmation: { flag: '--pending-financial-confirmation', key: 'pendingFinancialConfirmation' },
  pendingCallback: { flag: '--pending-callback', key: 'pendingCallback' },
};

function printThresholds(session: EngineSession, view: StuckThresholdsView): void {
  session.io.stdout(
    table(
      ['status', 'stuck after', 'default', 'meaning'],
      WATCHED_ORDER_STATUSES.map((status) => [status, duration(view.thresholds[status]), duration(view.defaults[status]), WATCHED_STATUS_TEXT[status]]),
    ),
  );
}

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

  const stuck = settings
    .command('stuck-thresholds')
    .description('Show how long a withdrawal may stay in each pending status before it counts as stuck, or change some (an admin, --as)')
    .option('--as <admin>', 'the admin changing them (asked for a passphrase)');
  for (const status of WATCHED_ORDER_STATUSES) stuck.option(`${STUCK_OPTIONS[status].flag} <duration>`, `stuck after this long in ${status}, e.g. 45m, 2h, 1d`);
  addEngineOptions(stuck).action(async (options: Readonly<Record<string, string | undefined>>, command: Command) => {
    // Durations are checked before any desk opens (exit 2); their range by the engine.
    const changes: Partial<Record<WatchedOrderStatus, number>> = {};
    for (const status of WATCHED_ORDER_STATUSES) {
      const typed = options[STUCK_OPTIONS[status].key];
      if (typed !== undefined) changes[status] = parseDuration(typed, STUCK_OPTIONS[status].flag);
    }
    const changing = Object.keys(changes).length > 0;
    if (changing && options['as'] === undefined) throw new UsageError('changing the stuck thresholds needs --as ADMIN (an admin signs the change).');
    if (!changing && options['as'] !== undefined) throw new UsageError('name a threshold to change, e.g. "treasury-desk settings stuck-thresholds --pending-transfer 4h --as ADMIN".');
    await withSession(command, io, async (session) => {
      const labels = Object.fromEntries(WATCHED_ORDER_STATUSES.map((status) => [`thresholds.${status}`, STUCK_OPTIONS[status].flag]));
      const view = changing && options['as'] !== undefined
        ? await session.runAs('settings/setStuckThresholds', { thresholds: changes }, options['as'], labels)
        : await session.run('settings/stuckThresholds', {});
      session.output(view, () => {
        printThresholds(session, view);
        if (changing) session.say('saved: the watchdog flags orders with these thresholds from now on');
      });
    });
  });
};
