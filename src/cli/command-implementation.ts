import type { Context, IOStreams } from './context.js';
import { EXIT } from './exit-codes.js';
import { startPaging } from './pager.js';

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
  /** Whether what it shows goes through a pager where stdout is a terminal (pager.ts): output as long as list's. */
  paged?: (options: Options) => boolean;
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
  // Only once it ran: a failure before any output is said on the terminal, with no pager to quit.
  const paging = implementation.paged?.(options) === true ? await startPaging(ctx) : undefined;
  const io = paging?.io ?? ctx.io;
  try {
    if (json) await implementation.renderJson(result, io);
    else await implementation.renderHuman(result, io);
  } finally {
    // The pager's exit is waited for, whatever happened: what is said next (a failure part way),
    // and the shell's prompt, come once the person has left it.
    await paging?.close();
  }
  return implementation.exitCode?.(result) ?? EXIT.ok;
}
