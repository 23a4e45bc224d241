import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// The kind tier needs Docker, kind and minutes per cluster: its project exists only when LBLAB_KIND=1, as
// the kind job on GitHub sets it (.github/workflows/ci.yml). `npm test` elsewhere neither lists nor runs
// *.kind.test.ts, and the unit project excludes them.
const kindTier = process.env['LBLAB_KIND'] === '1';
const kindProject: TestProjectInlineConfiguration = {
  test: {
    name: 'kind',
    include: ['**/*.kind.test.ts'],
    exclude: ['**/node_modules/**'],
    // Each file makes kind clusters on the one Docker engine: one file at a time, and minutes per hook.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
};

// Each backend is its own project so CI can run (and fail) them separately; unit tests sit next to code.
export default defineConfig({
  test: {
    reporters: ['default', './ci/vitest/summary-reporter.ts'],
    globalSetup: ['./ci/vitest/compile-typescript.ts'],
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine. Projects that
    // run one file at a time (netns, docker, browser, kind) are scheduled on their own after the others
    // whatever this says, so only the unit and emulated files share the cores, never with a timed tier.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          // A worker keeps its loaded modules from one file to the next instead of loading lblab's some
          // 370 modules again for each of about 300 files: measured here for the unit and emulated files
          // together, in one shuffled order, 218 s to 112 s. It holds because no file leaves state
          // behind: environment stubs are undone after each test, nothing is mocked by module, and a
          // module's caches (rings, texts, elections) must not change an outcome anyway (the emulated
          // replay tests check that).
          isolate: false,
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
          // As the unit files (above): these six share one emulator's modules per worker.
          isolate: false,
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
      ...(kindTier ? [kindProject] : []),
    ],
  },
});
