import { describe, expect, it } from 'vitest';
import { testContext } from '../helpers/test-context.js';

describe('plants list --search, --count: locally, in-process', () => {
  it('finds names that hold the text, case aside, and counts them: a number alone on stdout', async () => {
    const t = await testContext();
    const names = ['Boston Fern', 'Ivy', 'FERNANDO', 'Émile'];
    for (const [i, name] of names.entries()) {
      expect(await t.run('create', '--local', '--id', String(i + 1), '--name', name)).toBe(0);
    }
    const before = t.stdout().length;
    expect(await t.run('list', '--local', '--search', 'fern')).toBe(0);
    expect(await t.run('list', '--local', '--search', 'éMILE', '--count')).toBe(0);
    expect(await t.run('list', '--local', '--search', 'fern', '--count', '--json')).toBe(0);
    expect(await t.run('list', '--local', '--search', '', '--count')).toBe(0);
    expect(t.stdout().slice(before)).toBe('1\tBoston Fern\t\n3\tFERNANDO\t\n1\n{\n  "count": 2\n}\n4\n');
  });

  const LONG = '--search must be at most 1,000 characters';
  const counts = '--count counts every plant that matches --tag and --search';
  it.each([
    ['--count with --limit', ['--count', '--limit', '5'], `${counts}: --limit does not apply`],
    ['flags of a page', ['--count', '--after', '1', '--format', 'csv'], `${counts}: --after, --format do not apply`],
    ['--count with fields', ['--count', '--json', 'id'], '--count --json writes {"count": N}: it takes no fields'],
    ['a search of 1,001 characters', ['--search', 'é'.repeat(1001)], `${LONG}: no name is longer`],
  ])('%s is a usage error (exit 2)', async (_what, argv, message) => {
    const t = await testContext();
    expect(await t.run('list', '--local', ...argv)).toBe(2);
    if (argv.includes('--json')) expect(JSON.parse(t.stdout())).toMatchObject({ code: 'usage', message });
    else expect(t.stderr()).toBe(`error: ${message}\nhint: see plants list --help\n`);
  });
});
