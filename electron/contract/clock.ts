// How a measured clock drift (service time minus this computer's, from selfcheck) is judged, for the engine's
// selfcheck, the CLI and the renderer alike: within half the signed-time window it is fine, from there up to the
// window (PROTOCOL §4.2: ±300 s) it still works but deserves attention, beyond it every signed message is refused.

/** PROTOCOL §4.2: both sides refuse a signed time more than this far from their own clock (protocol/profile.ts
 * TIMESTAMP_WINDOW_SECONDS; a unit test keeps the two equal). */
export const CLOCK_DRIFT_LIMIT_SECONDS = 300;
/** From this much drift on, selfcheck warns: half the window, so a drifting clock is fixed before requests fail. */
export const CLOCK_DRIFT_WARN_SECONDS = CLOCK_DRIFT_LIMIT_SECONDS / 2;

export type ClockVerdict = 'ok' | 'warn' | 'fail';

/** `ok` below 150 s of drift either way, `warn` from 150 s up to 300 s, `fail` beyond 300 s. */
export function clockDriftVerdict(driftSeconds: number): ClockVerdict {
  const drift = Math.abs(driftSeconds);
  if (drift > CLOCK_DRIFT_LIMIT_SECONDS) return 'fail';
  return drift >= CLOCK_DRIFT_WARN_SECONDS ? 'warn' : 'ok';
}
