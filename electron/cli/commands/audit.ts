// `treasury-desk audit verify | anchor | head | checkpoint | export`: the signed, hash-chained audit log. verify checks every
// row's signature against the roster as it stood then (and, given --against, that a checkpoint's row is still there
// with the same hash) and exits 1 naming the first row that does not hold; head and checkpoint give the head's seq and
// fingerprint for the team to keep elsewhere; export writes every row (statement, signature, hash) as JSON lines.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { addEngineOptions, withSession } from '../engine-session';
import { NegativeAnswer, UsageError } from '../errors';
import { plural } from '../format';
import type { CommandRegistrar } from '../program';

export const registerAuditCommands: CommandRegistrar = (program, io) => {
  const audit = program.command('audit').description('The append-only, signed and hash-chained audit log');

  addEngineOptions(
    audit
      .command('verify')
      .description("Check every row's signature and the hash chain; exit 1 and name the first row that does not hold")
      .option('--against <file>', 'also require the row of this checkpoint file ("audit checkpoint") to be there with the same hash'),
  ).action(async (options: { readonly against?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const against = options.against === undefined ? undefined : resolve(options.against);
      const verification = await session.run('audit/verify', against === undefined ? {} : { against }, { against: '--against' });
      if (session.json) session.output(verification, () => undefined);
      if (!verification.ok) {
        throw new NegativeAnswer(`the audit chain is broken: first bad row ${verification.firstBadSeq}: ${verification.reason} (${plural(verification.rows, 'row')} checked)`, { code: 'unverified' });
      }
      session.say(`the audit chain is intact: ${plural(verification.rows, 'row')} verified`);
      session.say(verification.head === null ? 'head: the log is empty' : `head: row ${verification.head.seq}, fingerprint ${verification.head.fingerprint}`);
      if (verification.legacyRows > 0) session.say(`legacy rows: ${verification.legacyRows} unsigned rows from before signed approvals, sealed into the chain by its first row`);
      session.say(
        verification.anchored
          ? "anchored: this workstation's keychain holds the last head it saw, and the chain still contains it"
          : "not anchored: this workstation's keychain holds no anchor of the head yet (keep checkpoints elsewhere)",
      );
      if (against !== undefined) session.say(`checkpoint: matched ${against}`);
    });
  });

  addEngineOptions(
    audit
      .command('anchor')
      .description("Move this desk's key and audit anchor between the OS keychain and the file beside its database (an admin signs the move; never automatic)")
      .requiredOption('--move-to <store>', 'keychain or file')
      .requiredOption('--as <admin>', 'the admin deciding (asked for a passphrase)'),
  ).action(async (options: { readonly moveTo: string; readonly as: string }, command: Command) => {
    if (options.moveTo !== 'keychain' && options.moveTo !== 'file') throw new UsageError(`--move-to takes keychain or file (got ${JSON.stringify(options.moveTo)}).`);
    const to = options.moveTo;
    await withSession(command, io, async (session) => {
      const moved = await session.runAs('audit/moveAnchor', { to }, options.as, { to: '--move-to' });
      const where = (store: string): string => (store === 'file' ? 'the file beside the database' : 'the OS keychain');
      session.output(moved, () => session.say(`the desk key and audit anchor moved from ${where(moved.from)} to ${where(moved.to)} (signed in the audit log)`));
    });
  });

  addEngineOptions(audit.command('head').description("The audit log's head: its row number and fingerprint")).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const { head } = await session.run('audit/head', {});
      session.output({ head }, () => session.say(head === null ? 'the audit log is empty' : `head: row ${head.seq}, fingerprint ${head.fingerprint}`));
    });
  });

  addEngineOptions(
    audit
      .command('checkpoint')
      .description('Write a checkpoint of the head (signed by the desk key) for the team to keep away from this workstation')
      .requiredOption('--out <file>', 'the checkpoint file to write (replaced whole)'),
  ).action(async (options: { readonly out: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const written = await session.run('audit/checkpoint', { path: resolve(options.out) }, { path: '--out' });
      session.output(written, () => {
        session.say(`wrote a checkpoint of row ${written.seq}, fingerprint ${written.fingerprint}, to ${written.path}`);
        session.say(`keep it away from this workstation; check the log against it with "treasury-desk audit verify --against FILE"`);
      });
    });
  });

  addEngineOptions(
    audit
      .command('export')
      .description('Write every audit row, with its statement, signature and hash, as JSON lines')
      .argument('<file>', 'the file to write (replaced whole)'),
  ).action(async (file: string, _options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const written = await session.run('audit/export', { path: resolve(file) }, { path: 'FILE' });
      session.output(written, () => session.say(`wrote ${written.rows} audit row${written.rows === 1 ? '' : 's'} to ${written.path}`));
    });
  });
};
