import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * madge on `folder` as `npm run lint` runs it on src, test and bench: from the package's root, so
 * that it reads the same configuration (a .madgerc there); its exit code and the circles it found.
 */
async function circlesIn(folder: string): Promise<{ code: number; circles: string[][] }> {
  const madge = 'node_modules/madge/bin/cli.js';
  const args = [madge, '--circular', '--extensions', 'ts', '--ts-config', 'tsconfig.json', '--json', folder];
  // Its home is a temp dir: madge reads a ~/.madgerc too.
  const options = { cwd: ROOT, env: isolatedEnv(await tempDir()) };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, options);
    return { code: 0, circles: JSON.parse(stdout) as string[][] };
  } catch (error) {
    // Exit 1: circles found, listed on stdout.
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, circles: JSON.parse(stdout) as string[][] };
  }
}

describe('lint refuses import circles', () => {
  it('counts a circle of type-only imports: the type checker follows them, as a reader does', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.ts'), "import type { B } from './b.js';\n\nexport interface A {\n  b?: B;\n}\n");
    await writeFile(join(dir, 'b.ts'), "import type { A } from './a.js';\n\nexport interface B {\n  a?: A;\n}\n");
    expect(await circlesIn(dir)).toEqual({ code: 1, circles: [['a.ts', 'b.ts']] });
  });
});
