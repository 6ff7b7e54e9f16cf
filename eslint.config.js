import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Prettier lays the code out at 120 columns; what it leaves long (comments, strings) is held to them here.
  { plugins: { '@stylistic': stylistic }, rules: { '@stylistic/max-len': ['error', { code: 120 }] } },
  {
    files: [
      'build.mjs',
      'build-start-path.mjs',
      'build-case-classes.mjs',
      'bin/**/*.cjs',
      'bench/**/*.{mjs,cjs}',
      'test/**/*.{mjs,cjs}',
    ],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', require: 'readonly' } },
  },
  // CommonJS files: the executable, and preloads for measured processes (node --require).
  {
    files: ['bin/**/*.cjs', 'bench/**/*.cjs', 'test/**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/fs/**'],
    rules: {
      // One file-system seam (src/fs/file-system.ts): what a test injects to fail any read or write.
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'].map((name) => ({
            name,
            message: 'take the FileSystem of src/fs/file-system.ts (from the context or the store options)',
          })),
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      // The core is pure domain logic: no CLI, HTTP, colour or config libraries.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'commander',
                'chalk',
                'conf',
                'undici',
                'node:http',
                'node:https',
                'node:fs',
                'node:fs/promises',
                '**/cli/**',
                '**/server/**',
                '**/store/**',
                '**/client/**',
              ],
              message: 'src/core must stay pure: see docs in ../shared/design/architecture.md',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [
      'src/cli/main.ts',
      'src/cli/run-process.ts',
      'src/cli/process-context.ts',
      'src/cli/hang-up.ts',
      'src/cli/dev.ts',
    ],
    rules: {
      // Commands get their side effects from the context; only the entry points touch process.
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'take it from the context (src/cli/process-context.ts builds it)' },
      ],
    },
  },
);
