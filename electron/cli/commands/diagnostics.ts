// `treasury-desk diagnostics --out FILE`: writes the diagnostics file for support (versions, desk and sync state, the
// end of the application log; never a secret, docs/desktop.md "The log and diagnostics"). When the desk cannot be opened (a
// damaged database, no keychain), the file still gets the versions and the log, and says why the desk is missing.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { addEngineOptions, globalOptions, printJson, withSession } from '../engine-session';
import { ContractFailure } from '../errors';
import type { CommandRegistrar } from '../program';
import { version as packageVersion } from '../../../package.json';

interface Written {
  readonly path: string;
  readonly bytes: number;
  /** Whether the desk's state is in the file (false: it could not be opened, see `deskProblem`). */
  readonly desk: boolean;
  readonly deskProblem?: string;
}

/** Diagnostics without the desk, written the one way files are written (exclusive temporary file, then rename). */
async function writeWithoutDesk(path: string, problem: string): Promise<Written> {
  const [{ diagnosticsWithoutDesk }, { writeFailureReason, writeFileAtomically }] = await Promise.all([import('../../core/diagnostics'), import('../../core/files/atomic-write')]);
  const text = diagnosticsWithoutDesk(problem, packageVersion);
  try {
    writeFileAtomically(path, text);
  } catch (error) {
    throw new ContractFailure({ code: 'invalidInput', message: `could not write ${path}: ${writeFailureReason(error)}` });
  }
  return { path, bytes: Buffer.byteLength(text, 'utf8'), desk: false, deskProblem: problem };
}

export const registerDiagnosticsCommand: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program
      .command('diagnostics')
      .description('Write a diagnostics file for support: versions, desk and sync state, the end of the log; never a secret')
      .requiredOption('--out <file>', 'the file to write (JSON; replaced whole)'),
  ).action(async (options: { readonly out: string }, command: Command) => {
    const path = resolve(options.out);
    let deskOpened = false;
    let written: Written;
    try {
      written = await withSession(command, io, async (session) => {
        deskOpened = true;
        const answer = await session.run('diagnostics/export', { path }, { path: '--out' });
        return { path: answer.path, bytes: answer.bytes, desk: true };
      });
    } catch (error) {
      if (deskOpened) throw error;
      const problem = error instanceof Error ? error.message : String(error);
      written = await writeWithoutDesk(path, problem);
      io.stderr(`treasury-desk: warning: the desk could not be opened (${problem}); the diagnostics hold the versions and the log only\n`);
    }
    if (globalOptions(command).json === true) printJson(io, written);
    else {
      io.stdout(`wrote diagnostics to ${written.path} (${written.bytes} bytes): versions, ${written.desk ? 'desk and sync state, ' : ''}the end of the log; no secret\n`);
      io.stdout('check the file, then send it to your support contact\n');
    }
  });
};
