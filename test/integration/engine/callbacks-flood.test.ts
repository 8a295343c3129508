// The callback listener under a flood and beyond loopback (issue 23, item 2), on the real engine: 300 unauthenticated
// POSTs (which once wrote 300 signed rows in a second) are all counted as refused, a source over its rate is turned
// away with 429, and the audit log gets a bounded sample plus one summary row; listening on 0.0.0.0 needs an admin
// and is audited with their name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSALS_SAMPLED_PER_WINDOW } from '../../../electron/core/callbacks/refusals';
import { auditEntries, callOn } from '../approvals/support';
import { rawRequest } from '../../support/raw-merchant';
import { ADMIN, APPROVER, openDesk, type Desk } from './support';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk();
}, 60_000);
afterAll(async () => desk?.close());

describe('the callback listener', () => {
  it('a flood of 300 unauthenticated POSTs: all refused and counted, a bounded sample audited, the source rate-limited', async () => {
    const before = (await auditEntries(desk)).length;
    const started = await desk.value('callbacks/start', { host: '127.0.0.1', port: 0 });
    const url = started.url ?? '';
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, index) => rawRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ junk: index }) })),
    );
    expect(answers.every((answer) => answer.status === 400 || answer.status === 429)).toBe(true);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    expect((await desk.value('callbacks/state', {})).refused).toBe(300);
    const during = (await auditEntries(desk)).slice(before);
    expect(during.filter((row) => row.action === 'callbacks/refused')).toHaveLength(REFUSALS_SAMPLED_PER_WINDOW);
    await desk.value('callbacks/stop', {});
    const after = (await auditEntries(desk)).slice(before);
    const summaries = after.filter((row) => row.action === 'callbacks/refusedSummary');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.details).toMatchObject({ notAudited: 300 - REFUSALS_SAMPLED_PER_WINDOW, reasons: expect.arrayContaining(['too many requests from one source']) });
    // Start and stop, the sample and the summary: the flood wrote a bounded number of rows.
    expect(after.length).toBeLessThanOrEqual(REFUSALS_SAMPLED_PER_WINDOW + 3);
  });

  it('listening beyond loopback needs an admin, and is audited with their name', async () => {
    expect(await callOn(desk.engine, 'callbacks/start', { host: '0.0.0.0', port: 0 })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('an admin must start it') } });
    expect(await callOn(desk.engine, 'callbacks/start', { host: '0.0.0.0', port: 0, as: APPROVER })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await desk.value('callbacks/state', {})).running).toBe(false);
    const started = await desk.value('callbacks/start', { host: '0.0.0.0', port: 0, as: ADMIN });
    expect(started.running).toBe(true);
    const rows = await auditEntries(desk);
    expect(rows.filter((row) => row.action === 'callbacks/start').at(-1)).toMatchObject({ details: { beyondLoopback: true, admin: ADMIN.operator } });
    await desk.value('callbacks/stop', {});
  });
});
