// `treasury-desk selfcheck`: the end-to-end check of the active profile against the service (token, signed and
// encrypted request, verified response, echo, clock drift, protocol version), with what to do next. Exit 1 when not ok.
import type { Command } from 'commander';
import type { SelfcheckReport } from '../../contract';
import { addEngineOptions, withSession, type EngineSession } from '../engine-session';
import { NegativeAnswer } from '../errors';
import { table } from '../format';
import type { CommandRegistrar } from '../program';

function driftText(seconds: number | null): string {
  if (seconds === null) return 'unknown (no answer arrived)';
  if (seconds === 0) return '0 s';
  return `${seconds > 0 ? '+' : ''}${seconds} s (the service is ${seconds > 0 ? 'ahead' : 'behind'})`;
}

function printReport(session: EngineSession, report: SelfcheckReport): void {
  session.output(report, () => {
    const mark = (step: SelfcheckReport['steps'][number]): string => {
      if (!step.ok) return 'FAIL';
      return step.step === 'clock' && report.clockVerdict === 'warn' ? 'WARN' : 'ok';
    };
    session.io.stdout(table(['', 'step', 'detail'], report.steps.map((step) => [mark(step), step.step, step.detail])));
    session.say(`clock drift: ${driftText(report.clockDriftSeconds)}`);
    for (const line of report.guidance) session.say(`next: ${line}`);
    if (report.ok) session.say('selfcheck passed');
  });
}

export const registerSelfcheckCommand: CommandRegistrar = (program, io) => {
  addEngineOptions(
    program.command('selfcheck').description('Check the profile against the service step by step and measure the clock drift; exit 1 when a step fails'),
  ).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => {
      const report = await session.run('selfcheck/run', {});
      printReport(session, report);
      if (!report.ok) {
        const failed = report.steps.find((step) => !step.ok);
        throw new NegativeAnswer(failed ? `selfcheck failed at step ${failed.step}: ${failed.detail}` : 'selfcheck failed', report.guidance.length > 0 ? { whatToDo: report.guidance.join(' ') } : {});
      }
    });
  });
};
