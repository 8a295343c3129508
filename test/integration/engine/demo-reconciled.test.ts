// A fresh demo desk starts reconciled (issue 22): its first reconciliation, right after the demo's first sync, has no
// unexplained difference in any currency.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/core/engine';
import { demoSandboxStarter } from '../../../electron/sandbox';
import { valueOn } from '../approvals/support';
import { openDesk, type Desk } from './support';

let desk: Desk;
let engine: Engine;

beforeAll(async () => {
  desk = await openDesk({ profile: false });
  engine = await desk.reopen({ startDemoSandbox: demoSandboxStarter(join(desk.dir, 'demo-sandbox')) });
  await valueOn(engine, 'demo/start', {});
}, 120_000);
afterAll(async () => desk?.close());

describe('a fresh demo desk', () => {
  it('has no unexplained difference on its first reconciliation', async () => {
    const report = await valueOn(engine, 'reconcile/run', {});
    const unexplained = report.currencies.flatMap((currency) => currency.findings.filter((finding) => !finding.explained));
    expect(unexplained).toEqual([]);
    expect(report).toMatchObject({ ok: true, unexplained: 0 });
  });
});
