// `treasury-desk labels export FILE | import FILE | set TYPE REF TEXT | search TEXT`: labels and notes on deposits
// (ref apiOrder), withdrawals (userOrder), deposit addresses (addr) and address-book entries (book, chain:address), as
// BIP-329-style JSON lines (docs/labels.md). Setting and importing are signed operator actions (a passphrase is asked).
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { LABEL_TYPES } from '../../contract';
import { addEngineOptions, withSession } from '../engine-session';
import { table } from '../format';
import type { CommandRegistrar } from '../program';

interface AsOptions {
  readonly as: string;
}

export const registerLabelsCommands: CommandRegistrar = (program, io) => {
  const labels = program.command('labels').description('Labels and notes on deposits, withdrawals, deposit addresses and address-book entries');

  addEngineOptions(
    labels
      .command('set')
      .description(`Label a record (TYPE: ${LABEL_TYPES.join(', ')}); an empty TEXT without --note removes the label`)
      .argument('<type>', `deposit (REF = apiOrder), withdrawal (userOrder), addr (the deposit address) or book (chain:address)`)
      .argument('<ref>', 'which record')
      .argument('<text>', 'the label: one line, at most 200 characters')
      .option('--note <text>', 'a longer note beside the label (at most 1000 characters)')
      .requiredOption('--as <operator>', 'the operator doing it (asked for a passphrase)'),
  ).action(async (type: string, ref: string, text: string, options: AsOptions & { readonly note?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const answer = await session.runAs('labels/set', { type, ref, label: text, ...(options.note === undefined ? {} : { note: options.note }) }, options.as, { type: 'TYPE', ref: 'REF', label: 'TEXT' });
      session.output(answer, () => session.say(answer.label ? `${type} ${ref}: ${answer.label.label}` : `${type} ${ref}: label removed`));
    });
  });

  addEngineOptions(labels.command('search').description('Labels whose text or note contains TEXT (all labels with "")').argument('<text>', 'what to look for').option('--type <type>', `only this type: ${LABEL_TYPES.join(', ')}`)).action(
    async (text: string, options: { readonly type?: string }, command: Command) => {
      await withSession(command, io, async (session) => {
        const found = await session.run('labels/search', { text, ...(options.type === undefined ? {} : { type: options.type }) }, { type: '--type' });
        session.output(found, () => io.stdout(table(['type', 'ref', 'label', 'note'], found.map((view) => [view.type, view.ref, view.label, view.note ?? '']))));
      });
    },
  );

  addEngineOptions(labels.command('export').description('Write every label of the profile as JSON lines').argument('<file>', 'where to write (replaced whole)')).action(
    async (file: string, _options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const written = await session.run('labels/export', { path: resolve(file) }, { path: 'FILE' });
        session.output(written, () => session.say(`${written.rows} label${written.rows === 1 ? '' : 's'} written to ${written.path}`));
      });
    },
  );

  addEngineOptions(
    labels
      .command('import')
      .description('Read labels from JSON lines: every line is checked first, and all are applied or none')
      .argument('<file>', 'a file in the format "labels export" writes')
      .requiredOption('--as <operator>', 'the operator doing it (asked for a passphrase)'),
  ).action(async (file: string, options: AsOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const read = await session.runAs('labels/import', { path: resolve(file) }, options.as, { path: 'FILE' });
      session.output(read, () => session.say(`${read.rows} label${read.rows === 1 ? '' : 's'} imported from ${read.path}`));
    });
  });
};
