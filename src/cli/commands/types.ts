import type { Context, IOStreams } from '../context.js';

/** A command's implementation, loaded only when that command runs. */
export interface CommandModule<Options, Result> {
  run(options: Options, ctx: Context): Promise<Result>;
  /** Human output: data on stdout, messages on stderr. */
  renderHuman(result: Result, io: IOStreams): void;
  /** The one JSON document printed on stdout with --json. */
  toJson(result: Result): unknown;
  /** The exit code of a command that ran to the end but did not fully succeed (default 0). */
  exitCode?(result: Result): number;
}
