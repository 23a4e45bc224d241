import { defineConfig } from 'vitest/config';

// Each backend is its own project so CI can run (and fail) them separately; unit tests sit next to code.
export default defineConfig({
  test: {
    reporters: ['default', './ci/vitest/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'core/**/*.test.ts',
            'lab/**/*.test.ts',
            'reports/**/*.test.ts',
            'ci/**/*.test.ts',
            'scenarios/**/*.test.ts',
          ],
          exclude: [
            '**/*.netns.test.ts',
            '**/*.docker.test.ts',
            '**/*.emulated.test.ts',
            '**/*.browser.test.ts',
            '**/*.kind.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'emulated',
          include: ['**/*.emulated.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'netns',
          include: ['**/*.netns.test.ts'],
          exclude: ['**/node_modules/**'],
          // The files create network namespaces and start processes in them: one file at a time.
          fileParallelism: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'docker',
          include: ['**/*.docker.test.ts'],
          exclude: ['**/node_modules/**'],
          // The files start containers and networks on the one Docker engine: one file at a time. Their
          // setup builds the images when .ci/run has not (a cold base is debootstrap, about a minute).
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['**/*.browser.test.ts'],
          exclude: ['**/node_modules/**'],
          // The files drive Debian's chromium (a missing one fails them, never skips): one file at a time
          // so two browsers never share the runner's cores.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
