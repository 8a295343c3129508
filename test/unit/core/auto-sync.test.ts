// The background sync's schedule (core/sync/auto-sync.ts): the normal interval, the shorter one while a withdrawal
// is unsettled, and the doubling back-off after failures, capped.
import { describe, expect, it } from 'vitest';
import { autoSyncDelayMs, DEFAULT_AUTO_SYNC } from '../../../electron/core/sync/auto-sync';

describe('autoSyncDelayMs', () => {
  it('waits a minute when all is settled and 15 s while a withdrawal is unsettled', () => {
    expect(autoSyncDelayMs({ failures: 0, unsettled: false })).toBe(60_000);
    expect(autoSyncDelayMs({ failures: 0, unsettled: true })).toBe(15_000);
  });

  it('doubles from the interval after each failure in a row, up to the cap, whatever is unsettled', () => {
    const delays = [1, 2, 3, 4, 5, 6, 50].map((failures) => autoSyncDelayMs({ failures, unsettled: true }));
    expect(delays).toEqual([60_000, 120_000, 240_000, 480_000, 600_000, 600_000, 600_000]);
  });

  it('never waits longer when unsettled than when settled', () => {
    const options = { ...DEFAULT_AUTO_SYNC, intervalMs: 5_000, unsettledIntervalMs: 30_000 };
    expect(autoSyncDelayMs({ failures: 0, unsettled: true }, options)).toBe(5_000);
  });
});
