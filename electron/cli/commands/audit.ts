// `treasury-desk audit verify | export`: the hash-chained audit log. verify exits 1 and names the first altered row
// when the chain is broken; export writes every row (with its hashes) as JSON lines for an auditor.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { addEngineOptions, withSession } from '../engine-session';
import { NegativeAnswer } from '../errors';
import type { CommandRegistrar } from '../program';

export const registerAuditCommands: CommandRegistrar = (program, io) => {
  const audit = program.command('audit').description('The append-only, hash-chained audit log');

  addEngineOptions(audit.command('verify').description('Recompute the hash chain; exit 1 and name the first altered row when it is broken')).action(
    async (_options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const verification = await session.run('audit/verify', {});
        if (session.json) session.output(verification, () => undefined);
        if (!verification.ok) {
          throw new NegativeAnswer(`the audit chain is broken: row ${verification.firstBadSeq} was altered, removed or reordered (${verification.reason}); ${verification.rows} rows checked`);
        }
        session.say(`the audit chain is intact: ${verification.rows} row${verification.rows === 1 ? '' : 's'} verified`);
      });
    },
  );

  addEngineOptions(
    audit
      .command('export')
      .description('Write every audit row, with its hashes, as JSON lines')
      .argument('<file>', 'the file to write (replaced whole)'),
  ).action(async (file: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const written = await session.run('audit/export', { path: resolve(file) }, { path: 'FILE' });
      session.output(written, () => session.say(`wrote ${written.rows} audit row${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });
};
