// The sandbox's clock: real time plus an adjustable offset (admin `POST /sandbox/clock`), so tests can move token
// expiry (§6.3), the timestamp window (§4.2) and nonce memory (§4.4) without waiting. Timers use real time.
import type { Clock } from '../protocol/wire';

export class SandboxClock {
  private offsetMs = 0;

  constructor(private readonly realNow: Clock = () => Date.now()) {}

  /** Milliseconds since the epoch as the sandbox sees them (real time + offset). */
  readonly nowMs = (): number => this.realNow() + this.offsetMs;

  /** Whole Unix seconds (§4.1) as the sandbox sees them. */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Real milliseconds, for timers (auto-advance, callback retries): the offset never fires or delays a timer. */
  realMs(): number {
    return this.realNow();
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  /** Sets the offset from real time (absolute, not cumulative: the same call twice leaves the same clock). */
  setOffsetSeconds(seconds: number): void {
    this.offsetMs = Math.round(seconds * 1000);
  }
}
