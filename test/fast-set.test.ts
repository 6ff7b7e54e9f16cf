import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers/postgres.js';

// The fast set's rules (vitest.config.ts), held by the set itself: a test put outside test/e2e/
// that runs a process or needs PostgreSQL fails, saying where it goes.
describe('the fast set', () => {
  it('runs no child process, whoever starts it', () => {
    expect(() => spawn(process.execPath, ['--version'])).toThrow(
      'the fast set runs no child process; a test that does goes under test/e2e/',
    );
    expect(() => execFileSync('true')).toThrow('goes under test/e2e/');
  });

  it('has no PostgreSQL, even where PLANTS_TEST_DATABASE_URL names one', async () => {
    await expect(createTestDatabase()).rejects.toThrow(
      'no PostgreSQL for this test: only the tests under test/e2e/ have one',
    );
  });
});
