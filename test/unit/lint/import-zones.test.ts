// Proves the layer table of ARCHITECTURE.md is enforced: forbidden imports fail lint, allowed ones pass.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('layer import zones', () => {
  it.each([
    ['electron/protocol/probe.ts', "import { x } from '../core/engine';", 'electron/protocol may import only: chains'],
    ['electron/protocol/deep/probe.ts', "import { x } from '../../sandbox/server';", 'electron/protocol may import only: chains'],
    ['electron/chains/probe.ts', "import { x } from '../protocol/cipher';", 'nothing of ours'],
    ['electron/chains/probe.ts', "import { readFileSync } from 'node:fs';", 'no Node built-ins'],
    ['electron/core/probe.ts', "import { app } from 'electron';", 'Only electron/main and electron/preload'],
    ['electron/core/probe.ts', "import { x } from '../sandbox/server';", 'electron/core may import only'],
    ['electron/sandbox/probe.ts', "import { x } from '../core/engine';", 'electron/sandbox may import only'],
    ['electron/preload/probe.ts', "import { x } from '../core/engine';", 'electron/preload may import only: contract'],
    ['electron/main/probe.ts', "import { x } from '../../test/harness';", 'never imports test/'],
    ['renderer/src/probe.ts', "import { readFileSync } from 'node:fs';", 'no Node built-ins'],
    ['renderer/src/probe.ts', "import fs from 'fs';", 'no Node built-ins'],
    ['renderer/src/probe.ts', "import { ipcRenderer } from 'electron';", 'window.treasury'],
    ['renderer/src/probe.ts', "import { x } from '../../electron/protocol/cipher';", 'only electron/contract and electron/chains'],
  ])('%s: %s fails lint', async (filePath, code, expected) => {
    const errors = await restrictedImportErrors(filePath, `${code}\nexport const y = x ?? null;\n`);
    expect(errors.join('\n')).toContain(expected);
  });

  it.each([
    ['electron/protocol/probe.ts', "import { x } from '../chains/currencies';"],
    ['electron/core/probe.ts', "import { x } from '../protocol/cipher';"],
    ['electron/core/sync/probe.ts', "import { x } from '../store/database';"],
    ['electron/sandbox/probe.ts', "import { x } from '../protocol/cipher';"],
    ['electron/cli/probe.ts', "import { x } from '../sandbox/server';"],
    ['electron/main/probe.ts', "import { app } from 'electron';"],
    ['renderer/src/probe.ts', "import { x } from '../../electron/chains/currencies';"],
    ['renderer/src/probe.ts', "import { x } from '../../electron/contract/api';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await restrictedImportErrors(filePath, `${code}\nexport const y = x;\n`)).toEqual([]);
  });
});
