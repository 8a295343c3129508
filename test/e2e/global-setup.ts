// Playwright global setup: makes sure out/renderer holds a current build of the renderer before any harness serves it.
import { ensureRendererBuilt } from '../harness/build';

export default async function globalSetup(): Promise<void> {
  await ensureRendererBuilt();
}
