// ESLint flat config: TypeScript rules plus the layer import table of ARCHITECTURE.md enforced per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

/**
 * Who may import whom (ARCHITECTURE.md "Folders and who may import whom").
 * Each folder lists the sibling layers under electron/ it may NOT import.
 */
const ELECTRON_LAYERS = ['chains', 'contract', 'protocol', 'sandbox', 'core', 'main', 'preload', 'cli'];
const MAY_IMPORT = {
  chains: [],
  contract: ['chains'],
  protocol: ['chains'],
  sandbox: ['protocol', 'chains'],
  core: ['protocol', 'chains', 'contract'],
  main: ['core', 'contract', 'sandbox', 'protocol', 'chains'],
  preload: ['contract'],
  cli: ['core', 'contract', 'sandbox', 'protocol', 'chains'],
};
// Node built-ins, with and without the node: prefix, for layers that must stay pure or browser-side.
const NODE_BUILTINS = builtinModules.flatMap((name) => [name, `node:${name}`]);

function layerRestrictions(layer) {
  const forbidden = ELECTRON_LAYERS.filter((other) => other !== layer && !MAY_IMPORT[layer].includes(other));
  const patterns = [
    {
      regex: `^\\.{1,2}/(?:\\.\\./)*(?:${forbidden.join('|')})(?:/|$)`,
      message: `electron/${layer} may import only: ${MAY_IMPORT[layer].join(', ') || 'nothing of ours'} (ARCHITECTURE.md).`,
    },
    { regex: '(^|/)test(/|$)', message: 'Production code never imports test/.' },
  ];
  return patterns;
}

const restrictedElectronPackage = { name: 'electron', message: 'Only electron/main and electron/preload may import electron.' };

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'coverage/**', 'test-results/**', '.sandbox/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain JavaScript entry points and scripts run in Node.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
  },
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  ...Object.keys(MAY_IMPORT).map((layer) => ({
    files: [`electron/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...(layer === 'main' || layer === 'preload' ? [] : [restrictedElectronPackage]),
            ...(layer === 'chains' || layer === 'contract' || layer === 'preload'
              ? NODE_BUILTINS.map((name) => ({ name, message: `electron/${layer} is pure code: no Node built-ins.` }))
              : []),
          ],
          patterns: layerRestrictions(layer),
        },
      ],
    },
  })),
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer talks only to window.treasury (ARCHITECTURE.md).' },
            ...NODE_BUILTINS.map((name) => ({ name, message: 'The renderer runs sandboxed: no Node built-ins.' })),
          ],
          patterns: [
            {
              regex: '(^|/)electron/(protocol|sandbox|core|main|preload|cli)(/|$)',
              message: 'The renderer may import only electron/contract and electron/chains (ARCHITECTURE.md).',
            },
            { regex: '(^|/)test(/|$)', message: 'Production code never imports test/.' },
          ],
        },
      ],
    },
  },
);
