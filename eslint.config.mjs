import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodeImportBan = {
  paths: [{ name: 'vscode', message: 'Pure layers (gateway, chat, images) must not import vscode.' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.cache/**', 'test-results/**'] },
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
    files: ['src/gateway/**/*.ts', 'src/chat/**/*.ts', 'src/images/**/*.ts', 'src/review/**/*.ts', 'src/complete/**/*.ts'],
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
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
);
