// `treasury-desk operator add | list`: the desk's local operators. The first one must be an admin and needs no
// --as; later ones are added by an admin. Passphrases come from hidden prompts (the new one typed twice) or, without
// a terminal, TREASURY_DESK_PASSPHRASE (the admin) and TREASURY_DESK_NEW_PASSPHRASE (the new operator).
import type { Command } from 'commander';
import { addEngineOptions, askNewPassphrase, PLACEHOLDER, withSession } from '../engine-session';
import { formatTime, table } from '../format';
import type { CommandRegistrar } from '../program';

interface AddOptions {
  readonly name: string;
  readonly role: string;
  readonly as?: string;
}

export const registerOperatorCommands: CommandRegistrar = (program, io) => {
  const operator = program.command('operator').description('Local operators: who may request, approve and administer');

  addEngineOptions(
    operator
      .command('add')
      .description('Add an operator (the first one must be an admin; later ones need --as ADMIN)')
      .requiredOption('--name <name>', "the operator's name")
      .requiredOption('--role <role>', 'viewer, initiator, approver or admin')
      .option('--as <admin>', 'the admin adding them (asked for a passphrase); not needed for the first operator'),
  ).action(async (options: AddOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const request = { name: options.name, role: options.role };
      session.check('operators/add', { ...request, passphrase: PLACEHOLDER, ...(options.as !== undefined ? { as: { operator: options.as, passphrase: PLACEHOLDER } } : {}) });
      const as = options.as === undefined ? undefined : await session.acting(options.as);
      const passphrase = await askNewPassphrase(io, options.name);
      const added = await session.run('operators/add', { ...request, passphrase, ...(as ? { as } : {}) });
      session.output(added, () => session.say(`added operator ${added.name} (${added.role})`));
    });
  });

  addEngineOptions(operator.command('list').description('List the operators and their roles')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const operators = await session.run('operators/list', {});
      session.output(operators, () => {
        if (operators.length === 0) return session.say('no operators yet: add the first admin with "treasury-desk operator add --name NAME --role admin"');
        io.stdout(
          table(
            ['name', 'role', 'added (UTC)', 'status'],
            operators.map((entry) => [entry.name, entry.role, formatTime(entry.createdAt), entry.disabled ? 'disabled' : 'active']),
          ),
        );
      });
    });
  });
};
