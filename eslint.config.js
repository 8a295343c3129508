// ESLint flat config: TypeScript rules plus the layer import table of ARCHITECTURE.md (eslint/layer-imports.js: resolved
// paths, Node built-ins and third-party packages classified per layer), and no literal words in the window's JSX
// (eslint/no-literal-text.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './eslint/layer-imports.js';
import i18n from './eslint/no-literal-text.js';

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
  {
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { layers },
    rules: { 'layers/imports': 'error' },
  },
  {
    // The window's words come from the message catalogue (renderer/src/i18n).
    files: ['renderer/**/*.tsx'],
    plugins: { i18n },
    rules: { 'i18n/no-literal-text': 'error' },
  },
);
