import type { Context } from './context.js';

/**
 * V8's semi-space bound, in MB, for an import or a long list: the young generation is two
 * semi-spaces (and a space for large objects) that grow with how fast a program allocates, up to
 * a bound V8 takes from the machine's memory. Both allocate fast, every row's text and object:
 * Node 20 stops at 16 MB a semi-space on any machine, Node 24 grows them to 64 MB where the
 * machine has the memory, which puts an import's peak about 100 MB higher for nothing. 8 rather than 16:
 * with 16 a remote import peaks just under its target, with 8 well under it, for a few percent
 * more time collecting garbage; the figures of both are in docs/performance.md (figure 8).
 */
export const SEMI_SPACE_MB = 8;

const FLAG = '--max-semi-space-size';

/**
 * An input smaller than this, a regular file whose size is known before it is read, is imported
 * without running again: too little allocation to grow the young generation much (the peaks by
 * input size are in docs/performance.md), and an import of a few rows in a shell loop would pay a
 * second start for nothing. A pipe's size is not known: it is taken as large, so `echo … |
 * plants import -` pays the second start where `plants import rows.ndjson` does not.
 */
export const SMALL_INPUT_BYTES = 4 * 2 ** 20;

/**
 * Bounds V8's young generation for this command, before anything is written: where
 * neither Node's flags nor NODE_OPTIONS bound it already, the command runs again in place, Node
 * given `--max-semi-space-size` (process.execve: same process id, same open files). The bound is
 * fixed when V8 starts: set later (v8.setFlagsFromString), it changes nothing. A small input
 * (`inputBytes`, where known) needs no bound. A Node without
 * execve (Node 20, whose bound is 16 MB anyway; 22.0 to 22.14) runs on as it is. With
 * PLANTS_DEBUG set, says on stderr what it did. What Node was asked to do at its start is done
 * again by the new start: `--inspect-brk` stops twice; a CPU profile or coverage of the first is
 * not written.
 */
export function boundYoungGeneration(ctx: Pick<Context, 'node' | 'env' | 'io' | 'pid'>, inputBytes: number | undefined): void {
  const { node, env } = ctx;
  if (node === undefined) return;
  const say = (env.PLANTS_DEBUG ?? '') === '' ? () => undefined : (text: string) => void ctx.io.stderr.write(`plants: pid ${ctx.pid}: ${text}\n`);
  const given = givenBound(node, env);
  if (given !== undefined) return say(`V8's young generation bounded by ${node.execArgv.includes(given) ? "Node's flags" : 'NODE_OPTIONS'}: ${given}`);
  if (inputBytes !== undefined && inputBytes < SMALL_INPUT_BYTES) return say(`V8's young generation as Node sizes it: an input of ${inputBytes} bytes does not grow it much`);
  if (node.runAgain === undefined) return say(`V8's young generation as Node sizes it: this Node cannot run a command again in place (process.execve)`);
  const flag = `${FLAG}=${SEMI_SPACE_MB}`;
  say(`running again in place with ${flag}, to bound V8's young generation`);
  try {
    node.runAgain([flag]);
  } catch (error) {
    // Not run again (the Node binary gone since it started?): the command runs on, unbounded.
    say(`could not run again (${(error as Error).message}): V8's young generation as Node sizes it`);
  }
}

/** Whether boundYoungGeneration would run this command again, given an input of unknown size. */
export function wouldRunAgain({ node, env }: Pick<Context, 'node' | 'env'>): boolean {
  return node?.runAgain !== undefined && givenBound(node, env) === undefined;
}

/** The semi-space bound Node was given, in its flags or NODE_OPTIONS. */
function givenBound(node: NonNullable<Context['node']>, env: Context['env']): string | undefined {
  return node.execArgv.find(bounds) ?? (env.NODE_OPTIONS ?? '').split(/\s+/).find(bounds);
}

/** Whether a flag of Node's is V8's semi-space bound (V8 reads `_` as `-`). */
function bounds(flag: string): boolean {
  return flag.replaceAll('_', '-').startsWith(FLAG);
}
