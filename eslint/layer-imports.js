// ESLint rule `layers/imports`: the table of ARCHITECTURE.md "Folders and who may import whom", judged on resolved
// paths. A relative import is resolved against the importing file before its layer is decided (so `../../core` from
// a deep folder, `./../core` or `../main/../core` are all seen as electron/core), and a bare import is classified:
// a Node built-in, `electron`, or a third-party package, which must be on the layer's list (a new dependency has to be
// placed in a layer before it can be used). Import and export declarations, `import()`, `require()`, `import x =
// require()` and `import('x').T` types are all judged. Inside electron/core, the module map (eslint/core-modules.js)
// is judged too: a module imports only the kernel and the modules it lists, each listed before it.
import { builtinModules } from 'node:module';
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CORE_MODULES, coreModuleOf, coreRelativePath, moduleEntry } from './core-modules.js';

/** Sibling layers under electron/ each layer may import (besides itself). */
export const MAY_IMPORT = {
  chains: [],
  contract: ['chains'],
  protocol: ['chains'],
  sandbox: ['protocol', 'chains'],
  core: ['protocol', 'chains', 'contract'],
  main: ['core', 'contract', 'sandbox', 'protocol', 'chains'],
  preload: ['contract'],
  cli: ['core', 'contract', 'sandbox', 'protocol', 'chains'],
  renderer: ['contract', 'chains'],
};

/** Third-party packages each layer may import. */
export const PACKAGES = {
  chains: ['@noble/hashes', '@scure/base', 'crc', 'decimal.js'],
  contract: ['zod', 'decimal.js'],
  protocol: ['undici', 'zod', 'decimal.js', '@noble/hashes', '@scure/base'],
  sandbox: ['better-sqlite3', 'qrcode', 'zod', 'decimal.js', '@noble/hashes', '@scure/base'],
  core: ['better-sqlite3', 'pg', '@napi-rs/keyring', 'qrcode', 'undici', 'zod', 'decimal.js', '@noble/hashes', '@scure/base', 'pino', 'csv-parse', 'unhomoglyph'],
  main: ['electron', 'zod', 'yaml', 'electron-updater'],
  preload: ['electron'],
  cli: ['commander', 'zod', 'decimal.js'],
  renderer: ['react', 'react-dom', 'zustand', 'react-intl', '@tanstack/react-virtual', 'decimal.js', 'zod', 'uplot'],
};

/** Layers that may read the app's own manifest, package.json (its name and version: `treasury-desk --version`). */
const READS_MANIFEST = new Set(['cli', 'main']);

/** Layers that run without Node (pure code, or sandboxed in the browser): no Node built-ins. */
const NO_NODE = new Set(['chains', 'contract', 'preload', 'renderer']);
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** A numbered migration (SQLite or PostgreSQL): it imports its folder's runner.ts only, so nothing else can change it. */
const MIGRATION_FILE = /^electron[\\/]core[\\/](store[\\/]migrations|team[\\/]pg-migrations)[\\/]\d{4}-[^\\/]+\.ts$/;

/**
 * Exports only their owning module may import (its folder defines them, its tables included): one
 * module owns each state machine, and the others report facts to it.
 */
export const OWNED_EXPORTS = {
  moveWithdrawalRequest: {
    owner: 'electron/core/withdrawals',
    why: "only the withdrawals module moves a request's state: report what happened through electron/core/withdrawals/facts.ts",
  },
};

/** Why `file` (absolute) may not import the export `name`, or null when it may. */
export function ownedImportProblem(root, file, name) {
  const owned = Object.hasOwn(OWNED_EXPORTS, name) ? OWNED_EXPORTS[name] : undefined;
  if (owned === undefined) return null;
  const from = relative(root, file).split(sep).join('/');
  if (!from.startsWith('electron/') || from.startsWith(`${owned.owner}/`)) return null;
  return `${name} belongs to ${owned.owner}: ${owned.why}.`;
}

const CORE_MODULE_BY_NAME = new Map(CORE_MODULES.map((module) => [module.name, module]));

/** The file an import names (TypeScript's resolution of a relative path: the path, `.ts`, or the folder's index.ts). */
function resolvedFile(target) {
  for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return `${target}.ts`;
}

/**
 * Why a core file may not import another core file under the module map (eslint/core-modules.js), or null. Files no
 * module owns are not judged here (the module map's test requires every core file to be owned).
 */
export function coreModuleProblem(root, file, target) {
  const from = coreRelativePath(root, file);
  const to = coreRelativePath(root, resolvedFile(target));
  if (from === null || to === null) return null;
  const fromModule = coreModuleOf(from);
  const toModule = coreModuleOf(to);
  if (fromModule === null || toModule === null || toModule === 'kernel') return null;
  const entry = moduleEntry(CORE_MODULE_BY_NAME.get(toModule));
  if (fromModule === toModule) {
    if (to !== entry || from === entry || !entry.endsWith('/index.ts')) return null;
    return `electron/core/${from} imports its own module's door (${entry}): inside module ${fromModule}, import the file that defines the name, so the door, which re-exports those files, cannot close a circle.`;
  }
  const declared = CORE_MODULE_BY_NAME.get(fromModule);
  if (!declared.dependsOn.includes(toModule)) {
    const may = declared.dependsOn.length === 0 ? 'only the kernel' : `the kernel and ${declared.dependsOn.join(', ')}`;
    return `Module ${fromModule} (electron/core/${from}) may not import module ${toModule} (${to}): ${fromModule} may import ${may} (eslint/core-modules.js). A module depends only on modules listed before it; report a fact to a module above through its API instead.`;
  }
  if (to === entry) return null;
  return `Module ${fromModule} (electron/core/${from}) imports module ${toModule}'s file ${to}: another module is reached only through its door, electron/core/${entry}; export the name there if ${toModule} offers it.`;
}

/** The layer a repository path belongs to, `test` for test/, or null for anything else (scripts, config). */
export function layerOf(rootRelative) {
  const parts = rootRelative.split(/[\\/]/);
  if (parts[0] === 'electron' && parts.length >= 2 && parts[1] !== 'renderer' && Object.hasOwn(MAY_IMPORT, parts[1])) return parts[1];
  if (parts[0] === 'renderer') return 'renderer';
  if (parts[0] === 'test') return 'test';
  return null;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function layerList(layer) {
  const layers = MAY_IMPORT[layer];
  return layers.length === 0 ? 'nothing of ours' : layers.join(', ');
}

/**
 * Why `specifier` may not be imported from `file` (absolute) in the repository at `root`, or null when it may.
 */
export function importProblem(root, file, specifier) {
  const from = layerOf(relative(root, file));
  if (from === null || from === 'test') return null;
  const where = from === 'renderer' ? 'renderer' : `electron/${from}`;
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const target = relative(root, resolve(dirname(file), specifier));
    const fromFile = relative(root, file);
    if (MIGRATION_FILE.test(fromFile) && target.replace(/\.(js|ts)$/, '') !== join(dirname(fromFile), 'runner')) {
      return `A migration imports only its runner (./runner): ${specifier} would let another file change what ${fromFile} does once released.`;
    }
    if (target.startsWith(`..${sep}`) || target === '..' || isAbsolute(target)) return `${where} imports ${specifier}, outside the repository.`;
    const to = layerOf(target);
    if (to === 'test') return 'Production code never imports test/.';
    if (target === 'package.json' && READS_MANIFEST.has(from)) return null;
    if (to === null) return `${where} imports ${specifier} (${target}), which belongs to no layer.`;
    if (to === 'core' && from === 'core') return coreModuleProblem(root, file, resolve(dirname(file), specifier));
    if (to === from || MAY_IMPORT[from].includes(to)) return null;
    return `${where} may import only: ${layerList(from)} (ARCHITECTURE.md); ${specifier} resolves to electron/${to}.`;
  }
  if (NODE_BUILTINS.has(specifier) || specifier.startsWith('node:')) {
    if (!NO_NODE.has(from)) return null;
    return from === 'renderer' ? 'The renderer runs sandboxed: no Node built-ins.' : `${where} is pure code: no Node built-ins.`;
  }
  const name = packageName(specifier);
  if (PACKAGES[from].includes(name)) return null;
  if (name === 'electron') {
    return from === 'renderer' ? 'The renderer talks only to window.treasury (ARCHITECTURE.md).' : 'Only electron/main and electron/preload may import electron.';
  }
  return `${where} may not import the package ${name}: its packages are ${PACKAGES[from].join(', ')} (eslint/layer-imports.js places each dependency in a layer).`;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Layer imports of ARCHITECTURE.md, on resolved paths, with third-party packages classified per layer' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    function judge(node, source) {
      if (source === null || source === undefined || typeof source.value !== 'string') return;
      const problem = importProblem(root, file, source.value);
      if (problem !== null) context.report({ node, message: problem });
    }
    function judgeNames(node) {
      for (const specifier of node.specifiers ?? []) {
        const imported = specifier.type === 'ImportSpecifier' ? specifier.imported : specifier.type === 'ExportSpecifier' ? specifier.local : null;
        const name = imported?.type === 'Identifier' ? imported.name : imported?.value;
        if (typeof name !== 'string') continue;
        const problem = ownedImportProblem(root, file, name);
        if (problem !== null) context.report({ node: specifier, message: problem });
      }
    }
    return {
      ImportDeclaration: (node) => {
        judge(node, node.source);
        judgeNames(node);
      },
      ExportAllDeclaration: (node) => judge(node, node.source),
      ExportNamedDeclaration: (node) => {
        judge(node, node.source);
        if (node.source) judgeNames(node);
      },
      ImportExpression: (node) => (node.source.type === 'Literal' ? judge(node, node.source) : undefined),
      TSImportEqualsDeclaration: (node) => (node.moduleReference.type === 'TSExternalModuleReference' ? judge(node, node.moduleReference.expression) : undefined),
      TSImportType: (node) => judge(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') judge(node, node.arguments[0]);
      },
    };
  },
};

export default { rules: { imports: importsRule } };
