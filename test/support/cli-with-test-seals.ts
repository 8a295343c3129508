// The `treasury-desk` entry for a CLI process that must open operator keys sealed by a test process: fast-seals.ts
// runs first (module order), so this process seals and accepts at the test cost; the rest is the CLI's own entry.
import './fast-seals';
import '../../electron/cli/index';
