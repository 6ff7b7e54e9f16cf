import type { Context, IOStreams } from './context.js';
import { EXIT } from './exit-codes.js';

/**
 * What a command's implementation is: a run that returns data, and the two ways to show it. A
 * result too large to hold (a list of a million plants) is data that streams: its renderers write
 * it as it comes. Each run.ts exports its own as `implementation`, checked with `satisfies`.
 * Properties, not methods: the type checker compares the parameters of a method either way round,
 * of a function one way only, so that a run or a renderer that needs more than it is given does
 * not satisfy this.
 */
export interface CommandImplementation<Options, Result> {
  run: (options: Options, ctx: Context) => Promise<Result>;
  /** Human output: data on stdout, messages on stderr. */
  renderHuman: (result: Result, io: IOStreams) => void | Promise<void>;
  /** The one JSON document printed on stdout with --json: as a value, or written as it comes. */
  renderJson: (result: Result, io: IOStreams) => void | Promise<void>;
  /** The exit code of a command that ran to the end but did not fully succeed (default 0). */
  exitCode?: (result: Result) => number;
}

/**
 * Loads a command's implementation (only now: `--version` loads none), runs it on its options and
 * shows the result: one JSON document, or for people. Resolves to the exit code.
 */
export async function runImplementation<Options, Result>(
  load: () => Promise<{ implementation: CommandImplementation<Options, Result> }>,
  options: Options,
  json: boolean,
  ctx: Context,
): Promise<number> {
  const { implementation } = await load();
  const result = await implementation.run(options, ctx);
  if (json) await implementation.renderJson(result, ctx.io);
  else await implementation.renderHuman(result, ctx.io);
  return implementation.exitCode?.(result) ?? EXIT.ok;
}
