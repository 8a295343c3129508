// The scrypt cost of operator-key seals (sealed-key.ts): the app's, and the lower one a test process may set for itself.
// A module of its own, with no imports, so the tests' setup file loads nothing else of the engine.
/** What new seals use. 2^17 × 8 × 128 B = 128 MiB, about 0.3 s here: a guess costs an attacker the same. */
export const SEAL_KDF = { name: 'scrypt', N: 2 ** 17, r: 8, p: 1 } as const;
/** Bounds accepted when reading a seal back (the least N is the one this process seals with). */
export const SEAL_KDF_BOUNDS = { maxN: 2 ** 20, r: 8, maxP: 4 } as const;
/** The least N a test process may seal with (sealCostForTestProcess). */
const TEST_PROCESS_MIN_N = 2 ** 10;

/** The N this process seals with, and the least it accepts: SEAL_KDF's, unless a test process lowered it. */
let processN: number = SEAL_KDF.N;

/** The N new seals use in this process, and the least a seal read back may have. */
export function processSealN(): number {
  return processN;
}

/**
 * For test processes only: seals made (and accepted) by this process from now on cost `N` (a power of two from 2^10 to
 * SEAL_KDF.N). The suites found, enrol and sign as operators thousands of times; at 2^17 each step spends 0.3 s of a
 * core on scrypt and the suite spent most of its time there. Only test code calls this (test/support/fast-seals.ts;
 * test/unit/core/sealed-key.test.ts checks that no file under electron/ does): the app and the CLI always seal at
 * SEAL_KDF, which a test of the real CLI process checks (test/integration/cli/processes.test.ts, the demo).
 */
export function sealCostForTestProcess(N: number): void {
  if (!Number.isSafeInteger(N) || N < TEST_PROCESS_MIN_N || N > SEAL_KDF.N || (N & (N - 1)) !== 0) {
    throw new Error(`a test process seals with N a power of two from ${TEST_PROCESS_MIN_N} to ${SEAL_KDF.N}, not ${N}`);
  }
  processN = N;
}
