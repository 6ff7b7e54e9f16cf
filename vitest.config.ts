import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests start real processes and servers; the machine is small and shared.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The PostgreSQL server of the run, found or started once (test/setup/postgres.ts).
    globalSetup: ['test/setup/postgres.ts'],
  },
});
