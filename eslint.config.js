// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// core/ is sans-I/O: time and randomness come from an injected Clock and a seeded Random so the
// emulator can run every protocol in virtual time and replay a run from its seed.
const clockAndRandom =
  'core/ takes time from the injected Clock and randomness from the seeded Random (core/runtime)';

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/out/**', 'build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['core/**/*.ts'],
    ignores: ['core/runtime/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: clockAndRandom },
        { object: 'performance', property: 'now', message: clockAndRandom },
        { object: 'Math', property: 'random', message: clockAndRandom },
        { object: 'globalThis', property: 'setTimeout', message: clockAndRandom },
        { object: 'globalThis', property: 'setInterval', message: clockAndRandom },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: clockAndRandom },
        { name: 'setInterval', message: clockAndRandom },
        { name: 'setImmediate', message: clockAndRandom },
        { name: 'performance', message: clockAndRandom },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/lab/**', '../lab/*'], message: 'core/ never imports from lab/' },
            {
              group: ['node:timers', 'node:timers/*', 'timers', 'timers/*', 'node:perf_hooks'],
              message: clockAndRandom,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: clockAndRandom },
      ],
    },
  },
);
