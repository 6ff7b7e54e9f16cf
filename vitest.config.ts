import { defineConfig } from 'vitest/config';

/**
 * Two sets of tests, by the folder a file is in. `npm test` runs both; `npm run test:fast` the
 * first, for the edit-test loop, on a worker a core (vitest leaves one core free by default: on
 * two cores, one worker; the fast set's tests start no process, so the second core is theirs too).
 *
 * - fast: every test outside test/e2e/, in-process: units, stores, the server on port 0, the CLI
 *   through its Context. It runs no child process and no PostgreSQL, and a test that tries fails
 *   loudly: node:child_process throws in it (test/setup/no-child-process.ts), and it has no
 *   PLANTS_TEST_DATABASE_URL (test/helpers/postgres.ts throws).
 * - e2e: test/e2e/, every test that runs a process (bin/plants.cjs, plants serve, mount) or needs
 *   PostgreSQL, whose global setup finds or starts the run's PostgreSQL (test/setup/postgres.ts).
 */
export default defineConfig({
  test: {
    // End-to-end tests start real processes and servers; the machine is small and shared.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          setupFiles: ['test/setup/no-child-process.ts'],
          env: { PLANTS_TEST_DATABASE_URL: '' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/setup/postgres.ts'],
        },
      },
    ],
  },
});
