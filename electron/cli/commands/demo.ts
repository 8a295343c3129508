// `treasury-desk demo`: starts demo mode (the embedded sandbox with demo history, the `demo` profile and the demo
// operators: two founding admins and an approver confirmed by both) and keeps it running until SIGINT or SIGTERM;
// other `treasury-desk` commands on the same --db use it meanwhile. The demo operators' passphrases are printed on
// purpose: a demo is for learning.
import type { Command } from 'commander';
import { dirname, join } from 'node:path';
import { DEMO_OPERATORS } from '../../contract';
import { addEngineOptions, printJson, withSession } from '../engine-session';
import { table } from '../format';
import { untilSignalled } from '../io';
import type { CommandRegistrar } from '../program';

export const registerDemoCommand: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program.command('demo').description('Run the desk in demo mode against an embedded sandbox until Ctrl+C (SIGINT) or SIGTERM'),
  ).action(async (_options: unknown, command: Command) => {
    // Loaded on demand: only this command needs the sandbox.
    const { demoSandboxStarter } = await import('../../sandbox');
    await withSession(
      command,
      io,
      async (session) => {
        // A desk whose active profile is the demo restarts its sandbox when it opens; otherwise start the demo now.
        const active = (await session.run('profiles/list', {})).find((profile) => profile.active);
        const profile = active?.isDemo === true ? active : await session.run('demo/start', {});
        const operators = DEMO_OPERATORS.map((operator) => ({ name: operator.name, role: operator.role, passphrase: operator.passphrase }));
        if (session.json) printJson(io, { profile, operators });
        else {
          io.stdout(`demo desk running: profile ${profile.name}, sandbox at ${profile.baseUrl}, database ${session.options.dbPath}\n`);
          io.stdout('demo operators (their passphrases are public: this is a demo):\n');
          io.stdout(table(['name', 'role', 'passphrase'], operators.map((operator) => [operator.name, operator.role, operator.passphrase])));
          const roster = await session.run('operators/list', {});
          io.stdout(
            roster.notice === null
              ? `${DEMO_OPERATORS[0].name} and ${DEMO_OPERATORS[1].name} founded the demo desk; ${DEMO_OPERATORS[2].name} was invited by one and confirmed by the other, so approvals give four-eyes.\n`
              : `${roster.notice}\n`,
          );
          io.stdout(`try, in another terminal: treasury-desk --db ${JSON.stringify(session.options.dbPath)} balances\nPress Ctrl+C to stop.\n`);
        }
        const signal = await (io.untilStopped ?? untilSignalled)();
        if (!session.json) io.stdout(`demo stopped (${signal})\n`);
      },
      (dbPath) => ({ startDemoSandbox: demoSandboxStarter(join(dirname(dbPath), 'demo-sandbox')) }),
    );
  });
};
