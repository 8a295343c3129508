// Test processes seal operator keys at scrypt N = 2^10 instead of the app's 2^17 (operators/seal-cost.ts, which
// imports nothing): loaded first by vitest (setupFiles), by the browser harness and by the child processes tests start
// (`node --import`), so a key sealed in one test process opens in another. The app and the real CLI never load it;
// test/integration/cli/processes.test.ts checks that a real CLI process seals at the production cost.
import { sealCostForTestProcess } from '../../electron/core/operators/seal-cost';

/** 1 MiB of scrypt memory, about 2 ms a seal: the format, the salt, the AEAD binding and the checks are unchanged. */
export const TEST_SEAL_N = 2 ** 10;

sealCostForTestProcess(TEST_SEAL_N);
