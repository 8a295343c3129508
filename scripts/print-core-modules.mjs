// Prints the module graph of electron/core (eslint/core-modules.js) as README.md's "Developing" section shows it:
// one module per line, bottom first, with the modules it may import. test/unit/lint/core-modules.test.ts checks that
// the README's copy matches. Usage: node scripts/print-core-modules.mjs
import { CORE_MODULES } from '../eslint/core-modules.js';

export function coreModuleGraphText() {
  const width = Math.max(...CORE_MODULES.map((module) => module.name.length));
  const lines = CORE_MODULES.map((module) => {
    const deps = module.name === 'kernel' ? '(nothing; every module may import it)' : ['kernel', ...module.dependsOn].join(', ');
    return `${module.name.padEnd(width)}  ${deps}`;
  });
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(coreModuleGraphText());
