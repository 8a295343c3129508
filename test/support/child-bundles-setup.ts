// Vitest global setup: the test run's folder for child-process bundles (bundle.ts), so each script is bundled once per
// run and project instead of once per isolated test file, and removed when the run ends. A watch-mode rerun empties
// it first, so a source edited between runs is bundled again.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where bundle.ts keeps this run's bundles and the compiled code of the processes started from them. */
    childBundlesDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'td-bundles-'));
  project.provide('childBundlesDir', dir);
  project.onTestsRerun(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
  });
  return () => rmSync(dir, { recursive: true, force: true });
}
