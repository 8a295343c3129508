// `treasury-desk connection`: the app's connection panel (connection/panel, the engine's one handler) on the command
// line: reachable or not and why, since when, the merchant, the session token's lifetime (never the token), both key
// fingerprints, the clock drift readings, the last whitelist refusal and each resource's sync freshness. A CLI run
// starts with no contact, so the command first checks the service (selfcheck/run) unless --no-check says not to.
import type { Command } from 'commander';
import { CLOCK_DRIFT_LIMIT_SECONDS, clockDriftVerdict, type ConnectionPanelView, type TokenLifetimeView } from '../../contract';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { fields, table } from '../format';
import type { CommandRegistrar } from '../program';

/** How many drift readings the text form lists (the newest); --json gives every one the desk keeps. */
const RECENT_READINGS = 10;

/** What --json prints: the panel as the app gets it, and whether this run asked the service before reading it. */
export type ConnectionAnswer = ConnectionPanelView & { readonly checked: boolean };

function seconds(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

function connectionText(session: EngineSession, answer: ConnectionAnswer): string {
  const { connection } = answer;
  const lastContact = connection.lastContactAt === null ? '' : `; last verified answer ${session.time(connection.lastContactAt)}`;
  if (!answer.checked && connection.lastContactAt === null) return 'not checked in this run (run without --no-check to ask the service)';
  if (connection.online) return `reachable${lastContact}`;
  const why = connection.message ?? connection.reason ?? 'unknown reason';
  return `not reachable since ${session.time(connection.since)} (${connection.reason ?? 'unknown'}): ${why}${lastContact}`;
}

function tokenText(session: EngineSession, token: TokenLifetimeView | null, now: number): string {
  if (token === null) return 'none held in this run: the next request to the service asks for one';
  const left = token.expiresAt - now;
  return (
    `issued ${session.time(token.issuedAt)} (${seconds(now - token.issuedAt)} ago); ` +
    `expires ${left > 0 ? `in about ${seconds(left)}` : 'about now'}, ${session.time(token.expiresAt)} (estimated: 8 h after its last use, at most 24 h after issue)`
  );
}

function driftLine(driftSeconds: number): string {
  const verdict = clockDriftVerdict(driftSeconds);
  const side = `${Math.abs(driftSeconds)} s ${driftSeconds >= 0 ? 'ahead of' : 'behind'} this computer`;
  switch (verdict) {
    case 'ok':
      return `${side} (fine)`;
    case 'warn':
      return `${side} (close to the ${CLOCK_DRIFT_LIMIT_SECONDS} s limit: check the clock synchronisation)`;
    case 'fail':
      return `${side} (beyond the ${CLOCK_DRIFT_LIMIT_SECONDS} s limit: requests are refused until the clock is corrected)`;
    default: {
      const unreachable: never = verdict;
      return unreachable;
    }
  }
}

function printPanel(session: EngineSession, answer: ConnectionAnswer): void {
  const now = Date.now();
  const refusal = answer.lastWhitelistRefusal;
  const latest = answer.clockDrift.at(-1);
  const merchant = answer.merchantName === null || answer.merchantName === '' ? 'name not reported yet' : answer.merchantName;
  session.io.stdout(
    fields([
      ['profile', answer.profile],
      ['service', answer.baseUrl],
      ['merchant', `${merchant} (${answer.merchantId})`],
      ['API version', answer.apiVersion === null ? 'not reported yet' : String(answer.apiVersion)],
      ['connection', connectionText(session, answer)],
      ['session token', tokenText(session, answer.token, now)],
      ['platform key', answer.platformKeyFingerprint ?? 'unreadable: import the credentials again'],
      ['merchant key', answer.merchantKeyFingerprint ?? 'unreadable: import the credentials again'],
      [
        'last whitelist refusal',
        refusal === null
          ? 'never'
          : `${session.time(refusal.refusedAt)} on ${refusal.endpoint}: the service answered "Oops", so this workstation's public IP address was not on the merchant's whitelist then`,
      ],
      ['clock drift', latest === undefined ? 'not measured yet: run selfcheck (or this command without --no-check)' : `the service's clock is ${driftLine(latest.driftSeconds)}`],
    ]),
  );
  session.say('fingerprints: SHA-256 of each public key (DER SubjectPublicKeyInfo); compare them with the ones the platform shows for the merchant');
  if (answer.clockDrift.length > 0) {
    const recent = answer.clockDrift.slice(-RECENT_READINGS).reverse();
    session.say('');
    session.say(`clock drift readings, the ${recent.length} newest of ${answer.clockDrift.length} (positive: this computer's clock is behind; --json lists all):`);
    session.io.stdout(
      table(
        ['measured', 'from', 'drift (s)'],
        recent.map((reading) => [session.time(reading.measuredAt), reading.source === 'selfcheck' ? 'selfcheck' : 'an answer', String(reading.driftSeconds)]),
        ['left', 'left', 'right'],
      ),
    );
  }
  session.say('');
  session.say('sync freshness:');
  session.io.stdout(
    table(
      ['what', 'last success', 'last attempt', 'last problem'],
      answer.sync.map((resource) => [
        resource.resource,
        resource.lastSuccessAt === null ? 'never' : session.time(resource.lastSuccessAt),
        resource.lastAttemptAt === null ? 'never' : session.time(resource.lastAttemptAt),
        resource.lastError ?? '-',
      ]),
    ),
  );
}

export const registerConnectionCommand: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program
      .command('connection')
      .description("The connection panel's facts: reachable or not and why, the merchant, the token's lifetime, fingerprints, clock drift, the last whitelist refusal")
      .option('--no-check', 'do not ask the service first: show only what the desk recorded (reachability is then unknown)'),
  ).action(async (options: { readonly check: boolean }, command: Command) => {
    await withSession(command, io, async (session) => {
      // The check's own outcome is in the panel (connection state, drift reading, token, merchant); it is not repeated.
      if (options.check) await session.run('selfcheck/run', {});
      const panel = await session.run('connection/panel', {});
      const answer: ConnectionAnswer = { ...panel, checked: options.check };
      session.output(answer, () => printPanel(session, answer));
    });
  });
};
