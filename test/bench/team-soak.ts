// `npm run bench -- team --soak [--minutes N]`: twenty harness workstations on one team database (the workstation
// role; the owner only for team init) doing the mixed work of test/support/team-workload.ts (the 20-workstation test's
// code) for 30 minutes unless told; reports the figures and misses the gate on anything lost, doubled or left waiting.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMethod, type MethodName, type ResponseOf, type Result } from '../../electron/contract';
import { encodeTronAddress } from '../../electron/chains';
import { startHarnessEngine, type HarnessEngine } from '../harness/engine';
import { runTeamWorkload, sandboxOrdersIn, workloadLines, type WorkloadStation } from '../support/team-workload';
import { joinAndEnrol, type Call } from '../support/team-join';
import { BENCH_PROFILE, startSandboxDesk } from './sandbox-desk';
import type { BenchOutcome } from './run';
import { emptyTeamSchema } from './team-database';

const STATIONS = 20;

/** --minutes N (default 30; fractions allowed). */
export function soakMinutes(args: readonly string[]): number {
  const at = args.indexOf('--minutes');
  if (at === -1) return 30;
  const minutes = Number(args[at + 1]);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) throw new Error('--minutes takes a number of minutes above 0 (e.g. --minutes 1)');
  return minutes;
}

export async function runSoak(args: readonly string[], url: string, ownerUrl: string): Promise<BenchOutcome> {
  const minutes = soakMinutes(args);
  await emptyTeamSchema(ownerUrl);
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-soak-'));
  const harnesses: HarnessEngine[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    const stationOf = (name: string, harness: HarnessEngine, canSubmit: boolean): WorkloadStation => ({
      name,
      canSubmit,
      call: async <M extends MethodName>(method: M, request: unknown): Promise<Result<ResponseOf<M>>> => {
        return callMethod(harness.engine.handlers, method, request);
      },
    });
    const must = async <M extends MethodName>(station: WorkloadStation, method: M, request: unknown): Promise<ResponseOf<M>> => {
      const answer = await station.call(method, request);
      if (!answer.ok) throw new Error(`${station.name}: ${method} failed: ${answer.error.code}: ${answer.error.message}`);
      return answer.value;
    };
    const first = await startHarnessEngine({ dataDir: join(dir, 'A'), lockable: false, demoAuto: false });
    harnesses.push(first);
    const a = stationOf('A', first, true);
    const atA: Call = (method, request) => must(a, method, request);
    const desk = await startSandboxDesk(atA, dir);
    closers.push(() => desk.sandbox.close());
    const { sandbox, initiator: ADMIN, approver: APPROVER } = desk;
    await must(a, 'team/init', { database: url, ownerDatabase: ownerUrl, workstation: 'A', as: ADMIN });
    const stations: WorkloadStation[] = [a];
    const joinStarted = performance.now();
    for (let index = 1; index < STATIONS; index += 1) {
      const name = `W${String(index + 1).padStart(2, '0')}`;
      const harness = await startHarnessEngine({ dataDir: join(dir, name), lockable: false, demoAuto: false });
      harnesses.push(harness);
      const station = stationOf(name, harness, index === 1);
      // Joined as people join: the genesis A shows confirmed, enrolled through the admin's device key confirmed at A,
      // and a device key for the approver who acts there.
      await joinAndEnrol((method, request) => must(station, method, request), atA, name, url, ADMIN, [APPROVER]);
      stations.push(station);
    }
    // A second workstation holds the merchant credentials too, so two race to submit each approved request.
    await must(stations[1] as WorkloadStation, 'profiles/importFile', { name: BENCH_PROFILE, path: sandbox.credentialsPath });
    await must(stations[1] as WorkloadStation, 'sync/run', {});
    console.log(`team soak: ${STATIONS} workstations joined in ${((performance.now() - joinStarted) / 1000).toFixed(1)} s; ${minutes} minute(s) of mixed work`);
    const report = await runTeamWorkload(stations, {
      durationMs: minutes * 60_000,
      initiator: ADMIN,
      approver: APPROVER,
      submitter: ADMIN,
      currency: 'trx.usdt',
      amount: '10',
      toAddress: () => encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)])),
      sandboxOrders: () => sandboxOrdersIn(sandbox),
      log: (line) => console.log(line),
    });
    for (const line of workloadLines(report)) console.log(line);
    const missed: string[] = [];
    if (report.lost.length > 0) missed.push(`team soak: ${report.lost.length} decision(s) missing on a workstation`);
    if (report.doubled.length > 0) missed.push(`team soak: ${report.doubled.length} userOrder(s) with more than one order`);
    if (report.waiting.length > 0) missed.push(`team soak: ${report.waiting.length} request(s) left waiting`);
    if (report.failures.length > 0) missed.push(`team soak: ${report.failures.length} refused operation(s)`);
    if (new Set(report.heads).size !== 1) missed.push(`team soak: the workstations ended at different heads (${report.heads.join(', ')})`);
    return { missed };
  } finally {
    for (const harness of harnesses.reverse()) await harness.close().catch(() => undefined);
    for (const close of closers) await close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
