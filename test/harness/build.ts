// Test harness only: builds the renderer alone (the same Vite settings electron-vite uses for it) into out/renderer,
// so browser tests do not depend on the main-process bundle building; skips the build when the output is current.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

export const RENDERER_SOURCE_DIRS = ['renderer', 'electron/contract', 'electron/chains'];
export const RENDERER_OUT_DIR = resolve('out/renderer');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when out/renderer is missing or older than any renderer, contract or chains source file. */
export function rendererBuildIsStale(root = process.cwd()): boolean {
  const built = join(root, 'out/renderer/index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return RENDERER_SOURCE_DIRS.some((dir) => newestMtime(join(root, dir)) > builtAt);
}

export async function buildRenderer(root = process.cwd()): Promise<string> {
  const outDir = resolve(root, 'out/renderer');
  await build({
    configFile: false,
    root: resolve(root, 'renderer'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
  });
  return outDir;
}

/** Builds only when stale (or when forced); returns the output folder. */
export async function ensureRendererBuilt(options: { readonly force?: boolean; readonly root?: string } = {}): Promise<string> {
  const root = options.root ?? process.cwd();
  if (options.force === true || rendererBuildIsStale(root)) await buildRenderer(root);
  return resolve(root, 'out/renderer');
}
