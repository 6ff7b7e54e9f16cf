import { vi } from 'vitest';

/**
 * Setup file of the fast set (vitest.config.ts): it runs no child process. Every function of
 * node:child_process (and child_process) throws, naming where such a test goes, wherever the
 * test calls it from (a helper, the code under test): a test put in the wrong place fails loudly.
 */
vi.mock('node:child_process', async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  const refuse = (name: string) => () => {
    throw new Error(
      `${name}: the fast set runs no child process; a test that does goes under test/e2e/ (vitest.config.ts)`,
    );
  };
  const refused = Object.fromEntries(
    Object.entries(original).map(([name, value]) => [name, typeof value === 'function' ? refuse(name) : value]),
  );
  return { ...refused, default: refused };
});
