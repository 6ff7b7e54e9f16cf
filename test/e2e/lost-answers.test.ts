import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlantsWithin } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/temp.js';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const CREATED = 'the request was sent, so the plant may or may not have been created';
const READ = 'a read changes nothing: it is safe to run again';

/** Each command, and what a lost answer to its request means (issue 29, part 3). */
const COMMANDS: [string, string[], string][] = [
  ['create', ['create', '--id', '1', '--name', 'Fern'], CREATED],
  ['get', ['get', '1'], READ],
  ['list', ['list'], READ],
  ['delete', ['delete', '1'], 'the request was sent, so the plant may or may not have been deleted'],
  ['update', ['update', '1', '--name', 'Oak'], 'the request was sent, so the plant may or may not have been changed'],
  ['auth status', ['auth', 'status'], 'the token was not checked'],
];

describe.each([
  ['that never answers', { status: 200, delayMs: 5_000 }, 'no answer from'],
  ['that drops the connection', { status: 200, drop: true }, 'was closed before an answer'],
] as const)('a service %s', (_, answer, what) => {
  it.each(COMMANDS)('%s says what the lost answer means (exit 4)', async (_name, args, meaning) => {
    service = await fakeService();
    service.answer(answer);
    const home = await tempDir();
    const result = await runPlantsWithin(
      15_000,
      [...args, '--base-url', service.url, '--token', 'a-token-of-twenty-chars', '--timeout', '0.5'],
      isolatedEnv(home),
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(what);
    expect(result.stderr).toContain(`; ${meaning}`);
  });
});
