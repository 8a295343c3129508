// Proves the module map of electron/core (eslint/core-modules.js, issue 19): every core file belongs to a module, the
// graph is acyclic, each module's declared dependencies are exactly the modules its files import (types included),
// the lint refuses an import that runs against the graph, and README.md shows the graph as it is.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CORE_MODULES, coreModuleOf } from '../../../eslint/core-modules.js';

const root = process.cwd();
const coreDir = join(root, 'electron/core');

function coreFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return coreFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

interface CoreImport {
  readonly from: string;
  readonly to: string;
}

function resolveCore(fromFile: string, specifier: string): string | null {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return relative(coreDir, candidate).split('\\').join('/');
    } catch {
      // not this candidate
    }
  }
  return null;
}

/** Every relative import between core files (type-only ones too), read with TypeScript's parser. */
function coreImports(): CoreImport[] {
  const found: CoreImport[] = [];
  for (const file of coreFiles(coreDir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      let specifier: string | null = null;
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        specifier = node.moduleSpecifier.text;
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        specifier = node.argument.literal.text;
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        specifier = node.arguments[0].text;
      }
      if (specifier?.startsWith('.')) {
        const to = resolveCore(file, specifier);
        if (to !== null) found.push({ from: relative(coreDir, file).split('\\').join('/'), to });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const imports = coreImports();
const names = CORE_MODULES.map((module) => module.name);

describe('the module map of electron/core', () => {
  it('gives every core file a module', () => {
    const unowned = coreFiles(coreDir)
      .map((file) => relative(coreDir, file).split('\\').join('/'))
      .filter((file) => coreModuleOf(file) === null);
    expect(unowned).toEqual([]);
  });

  it('is acyclic: a module lists only modules before it, once each', () => {
    for (const [index, module] of CORE_MODULES.entries()) {
      expect(new Set(module.dependsOn).size, module.name).toBe(module.dependsOn.length);
      for (const dependency of module.dependsOn) {
        expect(names, `${module.name} names ${dependency}`).toContain(dependency);
        expect(names.indexOf(dependency), `${module.name} -> ${dependency}`).toBeLessThan(index);
      }
    }
  });

  it("declares exactly the modules each module's files import", () => {
    const used = new Map<string, Set<string>>(names.map((name) => [name, new Set()]));
    for (const edge of imports) {
      const from = coreModuleOf(edge.from);
      const to = coreModuleOf(edge.to);
      if (from === null || to === null || from === to || to === 'kernel') continue;
      used.get(from)?.add(to);
    }
    for (const module of CORE_MODULES) {
      expect([...(used.get(module.name) ?? [])].sort(), module.name).toEqual([...module.dependsOn].sort());
    }
  });

});

describe('the lint judges core imports by the module map', () => {
  const eslint = new ESLint({ cwd: root });
  async function importErrors(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${code}\nexport const y = x;\n`, { filePath });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'layers/imports').map((message) => message.message);
  }

  it.each([
    // withdrawals sits below sync and payouts: it reports facts up, never imports them
    ['electron/core/withdrawals/probe.ts', "import { SyncService as x } from '../sync/sync';", 'Module withdrawals (electron/core/withdrawals/probe.ts) may not import module sync'],
    ['electron/core/withdrawals/probe.ts', "import { approvalsQueue as x } from '../payouts/queue';", 'may not import module payouts'],
    ['electron/core/operators/probe.ts', "import { teamStatus as x } from '../team/mode';", 'may not import module team'],
    // a type-only import runs against the graph too: a module names only the types of modules it depends on
    ['electron/core/withdrawals/probe.ts', "import type { SyncService as x } from '../sync/sync';", 'may not import module sync'],
    ['electron/core/ledger/probe.ts', "import type { OperatorCredentials as x } from '../operators/acting';", 'Module ledger'],
    ['electron/core/audit/anchor-store.ts', "import { actingAs as x } from '../operators/acting';", 'Module audit'],
    // another module is reached only through its door (index.ts), even one this module depends on
    ['electron/core/sync/probe.ts', "import { reconcile as x } from '../withdrawals/desk';", "imports module withdrawals's file withdrawals/desk.ts"],
    ['electron/core/audit/trail.ts', "import type { Roster as x } from '../ledger/roster';", 'only through its door, electron/core/ledger/index.ts'],
    ['electron/core/notifications/probe.ts', "import { intentFingerprint as x } from '../statements/intent';", 'electron/core/ledger/index.ts'],
    // and a module's own files never go through its own door (the door re-exports them: a circle)
    ['electron/core/withdrawals/probe.ts', "import { reconcile as x } from '.';", "imports its own module's door (withdrawals/index.ts)"],
    ['electron/core/withdrawals/desk.ts', "import { nextStepsFor as x } from './index';", "its own module's door"],
  ])('%s: %s fails lint', async (filePath, code, expected) => {
    expect((await importErrors(filePath, code)).join('\n')).toContain(expected);
  });

  it.each([
    ['electron/core/sync/probe.ts', "import { reconcile as x } from '../withdrawals';"],
    ['electron/core/sync/probe.ts', "import { writeTransaction as x } from '../store/database';"],
    ['electron/core/audit/trail.ts', "import { Roster as x } from '../ledger';"],
    ['electron/core/engine.ts', "import { MerchantSession as x } from './connection';"],
    ['electron/core/withdrawals/probe.ts', "import { listWithdrawalRequests as x } from '../withdrawals/withdrawals-table';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await importErrors(filePath, code)).toEqual([]);
  });
});

describe("README's copy of the module map", () => {
  it('matches eslint/core-modules.js line for line', async () => {
    const { coreModuleGraphText } = await import('../../../scripts/print-core-modules.mjs');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = /The map \(each module, then what it may import;[\s\S]*?```text\n([\s\S]*?)\n\s*```/.exec(readme)?.[1];
    expect(block, 'README.md "Modules in one map" holds the graph in a ```text block').toBeDefined();
    const lines = (block ?? '').split('\n').map((line) => line.replace(/^ {2}/, ''));
    expect(lines.join('\n'), 'README.md is out of date: paste the output of node scripts/print-core-modules.mjs').toBe(coreModuleGraphText());
  });
});
