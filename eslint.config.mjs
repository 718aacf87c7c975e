import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const vscodeImportBan = {
  paths: [
    {
      name: 'vscode',
      message: 'Pure layers (gateway, chat, images, review, complete, agent) must not import vscode.',
    },
  ],
};

/** Folders of pure code: no vscode, no host glue, no browser code. */
const PURE_LAYERS = ['gateway', 'chat', 'images', 'review', 'complete', 'agent'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      '.cache/**',
      'test-results/**',
      // Deliberate cycles and layer violations, linted only by test/unit/lint.
      'test/fixtures/lint/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Layers: no import cycles (type-only imports aside), pure layers import no host or webview code,
    // the webview no host code, and the language-model glue (host/lm) not the chat view's host side.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...PURE_LAYERS.map((layer) => ({
              target: `./src/${layer}`,
              from: ['./src/host', './src/webview', './src/extension.ts'],
              message: 'Pure layers never import host or webview code.',
            })),
            {
              target: './src/webview',
              from: ['./src/host', './src/extension.ts'],
              message: 'The webview is browser code.',
            },
            {
              target: './src/host/lm',
              from: './src/host/chat',
              message: 'host/lm does not depend on the chat view.',
            },
          ],
        },
      ],
    },
  },
  {
    files: PURE_LAYERS.map((layer) => `src/${layer}/**/*.ts`),
    rules: { 'no-restricted-imports': ['error', vscodeImportBan] },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'The webview is browser code.' }], patterns: ['node:*'] },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' },
    },
  },
);
