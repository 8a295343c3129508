// Proves the layer table of ARCHITECTURE.md is enforced (eslint/layer-imports.js): forbidden imports fail lint, on
// resolved paths and with third-party packages classified per layer; allowed ones pass.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'layers/imports').map((message) => message.message);
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
    ['renderer/src/probe.ts', "import { x } from '../../electron/protocol/cipher';", 'renderer may import only: contract, chains'],
    // A numbered migration imports only its runner (issue 19): not another migration, nor the store's modules.
    ['electron/core/store/migrations/0100-deposit-intake.ts', "import { x } from './0020-deposit-search';", 'A migration imports only its runner'],
    ['electron/core/store/migrations/0100-deposit-intake.ts', "import { x } from './index';", 'A migration imports only its runner'],
    ['electron/core/store/migrations/0100-deposit-intake.ts', "import { x } from '../deposits';", 'A migration imports only its runner'],
    ['electron/core/team/pg-migrations/0020-desk-state.ts', "import { x } from './0010-initial';", 'A migration imports only its runner'],
    // One module owns the withdrawal lifecycle: others report facts (withdrawals/facts.ts) and never move a request.
    ['electron/core/sync/probe.ts', "import { moveWithdrawalRequest as x } from '../store';", 'moveWithdrawalRequest belongs to electron/core/withdrawals'],
    ['electron/core/team/probe.ts', "import { moveWithdrawalRequest } from '../withdrawals/withdrawals-table'; const x = moveWithdrawalRequest;", 'belongs to electron/core/withdrawals'],
    ['electron/core/payouts/probe.ts', "export { moveWithdrawalRequest as x } from '../store';", 'belongs to electron/core/withdrawals'],
    // Paths are resolved before they are judged: detours through allowed folders do not hide the target.
    ['electron/protocol/probe.ts', "import { x } from '../chains/../core/engine';", 'resolves to electron/core'],
    ['electron/protocol/probe.ts', "import { x } from './../core/engine';", 'resolves to electron/core'],
    ['renderer/src/probe.ts', "import { x } from '../../electron/contract/../core/engine';", 'resolves to electron/core'],
    ['renderer/src/probe.ts', "export { x } from '../../electron/main/ipc';", 'resolves to electron/main'],
    ['renderer/src/probe.ts', "const x = await import('../../electron/core/engine');", 'resolves to electron/core'],
    ['electron/chains/probe.ts', "import { x } from '../../../outside/file';", 'outside the repository'],
    // Third-party packages are placed in layers: the renderer takes no database, HTTP or Postgres client.
    ['renderer/src/probe.ts', "import Database from 'better-sqlite3'; const x = Database;", 'may not import the package better-sqlite3'],
    ['renderer/src/probe.ts', "import { request } from 'undici'; const x = request;", 'may not import the package undici'],
    ['renderer/src/probe.ts', "import pg from 'pg'; const x = pg;", 'may not import the package pg'],
    ['renderer/src/probe.ts', "import type { Pool } from 'pg'; const x: Pool | null = null;", 'may not import the package pg'],
    ['electron/contract/probe.ts', "import { request } from 'undici'; const x = request;", 'may not import the package undici'],
    ['electron/protocol/probe.ts', "import Database from 'better-sqlite3'; const x = Database;", 'may not import the package better-sqlite3'],
    ['electron/contract/probe.ts', "import pg from 'pg'; const x = pg;", 'may not import the package pg'],
    ['electron/core/probe.ts', "import { Command } from 'commander'; const x = Command;", 'may not import the package commander'],
    ['electron/core/probe.ts', "const x = require('left-pad');", 'may not import the package left-pad'],
    // The app's manifest (its version) is for the faces that print it, not for the engine or the window.
    ['electron/core/probe.ts', "import { version as x } from '../../package.json';", 'belongs to no layer'],
    ['renderer/src/probe.ts', "import { version as x } from '../../package.json';", 'belongs to no layer'],
    ['electron/cli/probe.ts', "import { x } from '../../package-lock.json';", 'belongs to no layer'],
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
    ['renderer/src/probe.ts', "import { x } from '../../electron/contract';"],
    ['renderer/src/probe.ts', "import { create as x } from 'zustand';"],
    ['electron/core/probe.ts', "import Database from 'better-sqlite3'; const x = Database;"],
    ['electron/core/team/probe.ts', "import pg from 'pg'; const x = pg;"],
    ['electron/protocol/probe.ts', "import { request as x } from 'undici';"],
    ['electron/cli/probe.ts', "import { Command as x } from 'commander';"],
    ['electron/core/probe.ts', "import { readFileSync as x } from 'node:fs';"],
    ['electron/cli/probe.ts', "import { version as x } from '../../package.json';"],
    ['electron/core/store/migrations/0100-deposit-intake.ts', "import { trigramAvailable as x } from './runner';"],
    ['electron/core/team/pg-migrations/0020-desk-state.ts', "import { projectionTable as x } from './runner';"],
    ['electron/core/store/migrations/index.ts', "import { migration0020 as x } from './0020-deposit-search';"],
    ['electron/core/withdrawals/probe.ts', "import { moveWithdrawalRequest as x } from './withdrawals-table';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await restrictedImportErrors(filePath, `${code}\nexport const y = x;\n`)).toEqual([]);
  });
});
