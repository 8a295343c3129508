// `treasury-desk team init | join | status | verify | reanchor | leave`: team mode, one shared desk on PostgreSQL for several
// workstations. --database URL (or TREASURY_DESK_DATABASE_URL) names the team database as this workstation's role;
// init also takes the owner role's URL (--owner-database or TREASURY_DESK_OWNER_DATABASE_URL) for the migrations.
// init and join need an admin (--as) to enrol this workstation's desk key; status says what is connected, since when
// and how fresh the local copy is, and the desk's pinned genesis fingerprint, which join asks the joiner to confirm
// (--genesis, or at the terminal).
// Invariant: a database password never comes from the command line (others see it in the process list): a URL given
// as an option with a password is refused; the password comes from the environment's URL, a hidden prompt, or
// node-postgres's PGPASSWORD / PGPASSFILE; it is moved to this workstation's keychain, the URL kept without it.
import type { Command } from 'commander';
import type { TeamStatusView } from '../../contract';
import { addEngineOptions, envOf, withSession, type EngineSession } from '../engine-session';
import { NegativeAnswer, UsageError } from '../errors';
import { withHostList } from '../../core/team/pg-hosts';
import { redactDatabaseUrl } from '../../core/team/shared-store';
import type { CliIo } from '../io';
import type { CommandRegistrar } from '../program';

const DATABASE_ENV = 'TREASURY_DESK_DATABASE_URL';
const OWNER_DATABASE_ENV = 'TREASURY_DESK_OWNER_DATABASE_URL';

interface ConnectOptions {
  readonly database?: string;
  readonly ownerDatabase?: string;
  readonly workstation: string;
  readonly as: string;
  readonly genesis?: string;
}

/** Whether a URL carries a password: in its authority (ROLE:PASSWORD@) or as a `password` parameter. */
function carriesPassword(url: string): boolean {
  const userinfo = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^@/?#]*)@/.exec(url)?.[1];
  if (userinfo !== undefined && userinfo.includes(':') && userinfo.slice(userinfo.indexOf(':') + 1) !== '') return true;
  return /[?&]password=/i.test(url);
}

/** Refuses an option's URL holding a password, saying how to pass the password instead; nothing is done. */
function refusePasswordInArgument(option: string, envVar: string, url: string): void {
  if (!carriesPassword(url)) return;
  throw new UsageError(
    `${option} must not carry the database password: a command line is seen by every user of this computer (ps) and kept in shell history. ` +
      `Give the URL without the password (postgres://ROLE@HOST:PORT/DATABASE) and type the password when asked (on a terminal), ` +
      `or set ${envVar} to the whole URL instead, or let node-postgres read it from PGPASSWORD or a password file (PGPASSFILE, default ~/.pgpass). ` +
      `Once connected, the desk keeps it in this computer's keychain. Nothing was done.`,
  );
}

/**
 * The URL to connect with: the option's (refused with a password in it) or the environment's. On a terminal, a URL
 * without a password gets one from a hidden prompt (an empty answer leaves it to PGPASSWORD / PGPASSFILE).
 */
async function databaseUrlOf(io: CliIo, option: string, given: string | undefined, envVar: string, who: string): Promise<string | undefined> {
  if (given !== undefined) refusePasswordInArgument(option, envVar, given);
  const url = given ?? envOf(io)[envVar];
  if (url === undefined || url === '' || carriesPassword(url) || io.stdinIsTTY !== true || !io.prompt) return url === '' ? undefined : url;
  let role: string;
  try {
    role = withHostList(url, (parsed) => decodeURIComponent(parsed.username));
  } catch {
    return url; // not a URL: the desk refuses it with a clear message
  }
  const password = await io.prompt(`Password of ${role} (${who}) for ${redactDatabaseUrl(url)} (empty: PGPASSWORD or PGPASSFILE): `, { hidden: true });
  if (password === '') return url;
  return withHostList(url, (parsed, restore) => {
    parsed.password = encodeURIComponent(password);
    return restore(parsed.toString());
  });
}

async function databaseOf(io: CliIo, options: ConnectOptions): Promise<string> {
  const database = await databaseUrlOf(io, '--database', options.database, DATABASE_ENV, "this workstation's role");
  if (database === undefined) throw new UsageError(`name the team database with --database postgres://ROLE@HOST:PORT/DATABASE (or set ${DATABASE_ENV}).`);
  return database;
}

function timeText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

/** The status as lines a person reads. */
function statusLines(view: TeamStatusView): string[] {
  if (!view.enabled) return ['this desk is not a team desk (team init moves it into a team database; team join connects to one)'];
  const lines = [
    `team database: ${view.database ?? ''} (this workstation: ${view.workstation ?? ''})`,
    view.connected ? `connected since ${timeText(view.since)}` : `unreachable since ${timeText(view.since)}: ${view.reason ?? 'no answer'} (reviewing works; decisions wait)`,
    `last verified row: ${view.verifiedSeq}${view.verifiedAt === null ? '' : ` (at ${timeText(view.verifiedAt)})`}`,
    view.genesis === null
      ? 'desk genesis: not pinned yet'
      : `desk genesis: ${view.genesis.fingerprint} (row ${view.genesis.seq}; profiles ${view.genesis.profiles.join(', ')}; workstations ${view.genesis.workstations.join(', ')})`,
  ];
  if (view.enrolment !== null) lines.push(view.enrolment);
  if (view.pendingEvents > 0) lines.push(`${view.pendingEvents} desk event(s) waiting to be published`);
  if (view.halted !== null) lines.push(`NOT TRUSTED: ${view.halted}`);
  for (const refusal of view.refused) lines.push(`refused ${refusal.rowName}: ${refusal.reason}`);
  return lines;
}

export const registerTeamCommands: CommandRegistrar = (program, io) => {
  const team = program.command('team').description('A team desk: several workstations, one approval queue, one audit (PostgreSQL)');

  for (const [name, description] of [
    ['init', 'Move this desk into an EMPTY team database and enrol this workstation (an admin signs)'],
    ['join', "Connect this workstation to a team desk: pull and verify its whole audit chain, confirm the desk's genesis fingerprint (an admin enrols it)"],
  ] as const) {
    const command = team
      .command(name)
      .description(description)
      .option('--database <url>', `this workstation's role: postgres://ROLE@HOST:PORT/DATABASE[?sslmode=verify-full], no password (default: ${DATABASE_ENV})`)
      .option('--owner-database <url>', `init only: the owner role running the migrations, postgres://OWNER@HOST:PORT/DATABASE, no password (default: ${OWNER_DATABASE_ENV})`)
      .requiredOption('--workstation <name>', 'how this workstation is named in the team')
      .requiredOption('--as <admin>', 'the admin enrolling this workstation (asked for a passphrase)');
    if (name === 'join') command.option('--genesis <fingerprint>', "the desk's genesis fingerprint, as an admin on the desk reads it from team status (asked at a terminal)");
    addEngineOptions(command).action(async (options: ConnectOptions, command: Command) => {
      if (name === 'join' && options.ownerDatabase !== undefined) throw new UsageError('--owner-database is for team init only: a joining workstation connects with its own role.');
      const database = await databaseOf(io, options);
      const ownerDatabase = name === 'init' ? await databaseUrlOf(io, '--owner-database', options.ownerDatabase, OWNER_DATABASE_ENV, 'the owner role') : undefined;
      const labels = { database: '--database', ownerDatabase: '--owner-database', workstation: '--workstation', genesis: '--genesis' };
      await withSession(command, io, async (session) => {
        const view =
          name === 'init'
            ? await session.runAs('team/init', ownerDatabase === undefined ? { database, workstation: options.workstation } : { database, ownerDatabase, workstation: options.workstation }, options.as, labels)
            : await session.runAs('team/join', { database, workstation: options.workstation, genesis: await confirmedGenesis(session, database, options.genesis) }, options.as, labels);
        session.output(view, () => statusLines(view).forEach((line) => session.say(line)));
      });
    });
  }

  /**
   * The genesis fingerprint the joiner confirms: --genesis as given (the engine refuses it, naming the one it found,
   * when it differs); else, at a terminal, the one the desk shows once a person says it matches; else a refusal.
   */
  async function confirmedGenesis(session: EngineSession, database: string, given: string | undefined): Promise<string> {
    if (given !== undefined) return given;
    if (io.stdinIsTTY !== true || !io.prompt) {
      throw new UsageError("joining needs the desk's genesis fingerprint: ask an admin on the desk to read it from team status, and pass it with --genesis FINGERPRINT.");
    }
    const preview = await session.run('team/preview', { database }, { database: '--database' });
    const genesis = preview.genesis;
    io.stderr(`The desk's genesis fingerprint is ${genesis.fingerprint} (row ${genesis.seq}; profiles ${genesis.profiles.join(', ')}; workstations ${genesis.workstations.join(', ')}).\n`);
    io.stderr('Compare it with an admin at a workstation already on the desk (team status). A different one means another desk or a tampered database.\n');
    const answer = await io.prompt('Does it match? [y/N] ', { hidden: false });
    if (!/^y(es)?$/i.test(answer.trim())) throw new NegativeAnswer('the genesis fingerprint was not confirmed; nothing was joined.');
    return genesis.fingerprint;
  }

  addEngineOptions(team.command('status').description('What this workstation is connected to, since when, and how fresh its copy is')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const view = await session.run('team/status', {});
        session.output(view, () => statusLines(view).forEach((line) => session.say(line)));
      });
    },
  );

  addEngineOptions(team.command('verify').description("Catch up and check the team database's rows against the signed statements; exit 1 naming refused rows")).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const view = await session.run('team/verify', {});
        session.output(view, () => statusLines(view).forEach((line) => session.say(line)));
        if (view.halted !== null || view.refused.length > 0) throw new NegativeAnswer(`the team database holds ${view.refused.length} refused row(s)${view.halted === null ? '' : ' and is not trusted'}`);
      });
    },
  );

  addEngineOptions(
    team
      .command('reanchor')
      .description('After IT restored the team database from an older backup: republish the rows it lost (one admin proposes, a second confirms with --confirm)')
      .requiredOption('--as <admin>', 'the admin proposing, or (with --confirm) the second admin confirming (asked for a passphrase)')
      .option('--confirm', 'confirm the re-anchor another admin proposed on this workstation'),
  ).action(async (options: { readonly as: string; readonly confirm?: boolean }, command: Command) => {
    await withSession(command, io, async (session) => {
      const view = await session.runAs('team/reanchor', { confirm: options.confirm === true }, options.as);
      session.output(view, () => {
        const rows = `audit rows ${view.fromSeq} to ${view.toSeq}`;
        if (view.step === 'proposed') {
          session.say(`${view.proposer} proposes to republish ${rows}, which this workstation verified and the team database lacks.`);
          session.say('A second admin confirms here with: treasury-desk team reanchor --confirm --as ADMIN');
        } else {
          session.say(`${rows} are in the team database again (proposed by ${view.proposer}, confirmed by ${view.confirmer ?? ''}).`);
        }
        statusLines(view.team).forEach((line) => session.say(line));
      });
    });
  });

  addEngineOptions(
    team.command('leave').description('Stop team mode on this workstation (its local copy stays)').requiredOption('--as <admin>', 'the admin deciding (asked for a passphrase)'),
  ).action(async (options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const view = await session.runAs('team/leave', {}, options.as);
      session.output(view, () => statusLines(view).forEach((line) => session.say(line)));
    });
  });
};
