// The clock verdict of selfcheck (issue 11, item 9): fine below 150 s of drift, a warning from 150 s up to the §4.2
// window of 300 s, a failure beyond it, the same on both sides of zero; and the window equals the protocol profile's.
import { describe, expect, it } from 'vitest';
import { CLOCK_DRIFT_LIMIT_SECONDS, CLOCK_DRIFT_WARN_SECONDS, clockDriftVerdict } from '../../../electron/contract';
import { TIMESTAMP_WINDOW_SECONDS } from '../../../electron/protocol/profile';

describe('clockDriftVerdict', () => {
  it('is ok below 150 s, warns from 150 s to 300 s and fails beyond 300 s, either way', () => {
    const cases: Array<[number, string]> = [
      [0, 'ok'],
      [149, 'ok'],
      [149.9, 'ok'],
      [150, 'warn'],
      [151, 'warn'],
      [299, 'warn'],
      [300, 'warn'],
      [300.5, 'fail'],
      [301, 'fail'],
      [3600, 'fail'],
    ];
    for (const [drift, verdict] of cases) {
      expect(clockDriftVerdict(drift), `+${drift}`).toBe(verdict);
      expect(clockDriftVerdict(-drift), `-${drift}`).toBe(verdict);
    }
  });

  it('uses the protocol window and half of it', () => {
    expect(CLOCK_DRIFT_LIMIT_SECONDS).toBe(TIMESTAMP_WINDOW_SECONDS);
    expect(CLOCK_DRIFT_WARN_SECONDS).toBe(150);
  });
});
