// Benchmark of the statement-kind registry over a shared chain (issue 18): a desk of 50 operators and about 100,000
// signed rows is moved into the throwaway PostgreSQL, then a workstation reads the whole chain back page by page and
// verifies every row through ChainVerifier (the registry's rule per kind, every signature), as a joining workstation
// does. Reports rows/s next to this machine's Ed25519 verification limit measured in the same run.
import { rmSync } from 'node:fs';
import { exportAudit } from '../../electron/core/audit/audit-table';
import { closeDatabase } from '../../electron/core/store/database';
import { openPostgresDeskStore } from '../../electron/core/team/postgres-store';
import type { ChainHead } from '../../electron/core/team/shared-store';
import { buildBenchDesk, ed25519Limit } from './bench-desk';
import type { BenchOutcome } from './run';
import { emptyTeamSchema } from './team-database';

const PAGE = 1_000;

export async function runRegistryBench(url: string, ownerUrl: string, requests = 10_000): Promise<BenchOutcome> {
  const { dir, db, trail } = await buildBenchDesk(requests);
  await emptyTeamSchema(ownerUrl);
  // The workstation role appends; the owner runs the migrations (initialise), as at team init.
  const store = await openPostgresDeskStore(url, { ownerUrl });
  try {
    await store.initialise(trail.deskId, Date.now());
    const rows = trail.head()?.seq ?? 0;
    let expected: ChainHead | null = null;
    for (let from = 1; from <= rows; from += PAGE) {
      const page = exportAudit(db, { fromSeq: from, toSeq: Math.min(rows, from + PAGE - 1) });
      const outcome = await store.append(page, [], expected);
      if (!outcome.appended) throw new Error('the bench chain was not appended');
      expected = outcome.head;
    }
    const limit = ed25519Limit();
    const verifier = trail.verifier();
    const started = process.hrtime.bigint();
    for (let after = 0; ; ) {
      const page = await store.rowsAfter(after, 500);
      for (const row of page) {
        const problem = verifier.check(row);
        if (problem) throw new Error(`the bench chain does not verify at row ${problem.seq}: ${problem.reason}`);
      }
      if (page.length < 500) break;
      after = page[page.length - 1]?.seq ?? after;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rate = verifier.rows / seconds;
    console.log(`\nregistry over a shared chain: ${verifier.rows.toLocaleString('en')} rows read from PostgreSQL and verified (each kind's rule, every signature) in ${seconds.toFixed(1)} s`);
    console.log(`  ${rate.toFixed(0)} rows/s = ${(rate / limit).toFixed(2)} of the Ed25519 limit (${limit.toLocaleString('en')} verifications/s on one core)`);
    return { missed: [] };
  } finally {
    await store.close();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
