import { describe, expect, it } from 'vitest';
import { boundYoungGeneration, SEMI_SPACE_MB, SMALL_INPUT_BYTES, wouldRunAgain } from '../../src/cli/young-generation.js';
import type { NodeRun } from '../../src/cli/context.js';

/** A Node whose run again is recorded (or fails, as execve may), and what was said with PLANTS_DEBUG. */
function nodeOf(execArgv: string[], env: Record<string, string> = {}, fails = false) {
  const runs: (readonly string[])[] = [];
  let said = '';
  const node: NodeRun = {
    execArgv,
    runAgain: (flags) => {
      runs.push(flags);
      // execve does not return; failing, it throws, and the import runs on.
      throw new Error(fails ? 'ENOENT' : 'execve stood in for');
    },
  };
  const ctx = { node, env: { PLANTS_DEBUG: '1', ...env }, pid: 7, io: { stderr: { write: (text: string) => void (said += text) } } } as unknown as Parameters<typeof boundYoungGeneration>[0];
  return { ctx, runs, said: () => said };
}

describe('boundYoungGeneration', () => {
  it('runs again with the bound for a large input or one of unknown size (a pipe)', () => {
    for (const bytes of [SMALL_INPUT_BYTES, undefined]) {
      const { ctx, runs, said } = nodeOf([]);
      boundYoungGeneration(ctx, bytes);
      expect(runs).toEqual([[`--max-semi-space-size=${SEMI_SPACE_MB}`]]);
      expect(said()).toContain(`running again in place with --max-semi-space-size=${SEMI_SPACE_MB}`);
    }
  });

  it.each([
    ["Node's flags", ['--max-semi-space-size=4'], {}],
    ["Node's flags, as V8 also spells it", ['--max_semi_space_size=4'], {}],
    ['NODE_OPTIONS', [], { NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=32' }],
  ])('does not run again where %s bound it already', (_, execArgv, env) => {
    const { ctx, runs, said } = nodeOf(execArgv, env);
    boundYoungGeneration(ctx, undefined);
    expect(runs).toEqual([]);
    expect(said()).toMatch(/^plants: pid 7: V8's young generation bounded by (Node's flags|NODE_OPTIONS): --max[-_]semi[-_]space[-_]size=\d+\n$/);
  });

  it('does not run again for an input smaller than the bound, nor where Node cannot', () => {
    const small = nodeOf([]);
    boundYoungGeneration(small.ctx, SMALL_INPUT_BYTES - 1);
    expect(small.runs).toEqual([]);
    const { ctx, runs } = nodeOf([]);
    boundYoungGeneration({ ...ctx, node: { execArgv: [] } }, undefined);
    expect(runs).toEqual([]);
    boundYoungGeneration({ env: ctx.env, io: ctx.io, pid: ctx.pid }, undefined);
    expect(runs).toEqual([]);
  });

  it('runs on, unbounded, where running again fails, and says why', () => {
    const { ctx, runs, said } = nodeOf([], {}, true);
    boundYoungGeneration(ctx, undefined);
    expect(runs).toHaveLength(1);
    expect(said()).toContain('could not run again (ENOENT)');
  });

  it('says beforehand whether it would run again: only on a Node with execve not bounded already', () => {
    expect(wouldRunAgain(nodeOf([]).ctx)).toBe(true);
    expect(wouldRunAgain(nodeOf(['--max-semi-space-size=8']).ctx)).toBe(false);
    expect(wouldRunAgain(nodeOf([], { NODE_OPTIONS: '--max_semi_space_size=16' }).ctx)).toBe(false);
    expect(wouldRunAgain({ node: { execArgv: [] }, env: {} })).toBe(false);
    expect(wouldRunAgain({ env: {} })).toBe(false);
  });
});
