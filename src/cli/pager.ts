import { printable } from '../core/printable.js';
import type { Context, Env, IOStreams } from './context.js';

/** The variable that names plants' own pager: over PAGER; empty or `cat`, no pager (as GH_PAGER for gh). */
export const PAGER_VARIABLE = 'PLANTS_PAGER';

/** The pager where neither PLANTS_PAGER nor PAGER names one, run as git and gh run it (pagerEnv). */
const DEFAULT_PAGER = 'less';

/**
 * The pager `env` names, as words (no shell: a pager that cannot be started is then known, not
 * an exit 127 after the output was thrown at it), and where the name comes from; undefined where
 * paging is off: PLANTS_PAGER, else PAGER, else less; a name that is empty or `cat` is no pager.
 */
export function pagerCommand(env: Env): { argv: string[]; from: string } | undefined {
  const from = env[PAGER_VARIABLE] !== undefined ? PAGER_VARIABLE : env.PAGER !== undefined ? 'PAGER' : undefined;
  const argv = commandWords(from === undefined ? DEFAULT_PAGER : (env[from] as string));
  if (argv.length === 0 || (argv.length === 1 && argv[0] === 'cat')) return undefined;
  return { argv, from: from ?? 'the default' };
}

/**
 * The pager's environment: this one, with less told to quit where the output fits one screen,
 * to show colours, and to leave the screen as it is when it quits (LESS=FRX), and lv to show
 * colours (LV=-c), unless the person set their own, as git and gh do.
 */
export function pagerEnv(env: Env): Env {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

/**
 * `text` split into words as a shell splits a simple command: at blanks, but within quotes ('…'
 * as it is, "…" and outside quotes with \\ escaping the next character). No variables, no globs.
 */
export function commandWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quote === "'" && c !== "'") word += c;
    else if (c === '\\' && quote !== "'" && i + 1 < text.length) word = (word ?? '') + text[(i += 1)];
    else if (c === quote) quote = undefined;
    else if (quote === undefined && (c === '"' || c === "'")) {
      quote = c;
      word ??= '';
    } else if (quote === undefined && /\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Output that goes through a pager: streams whose stdout is the pager's input, and its end. */
export interface Paging {
  io: IOStreams;
  /** Ends the pager's input, and resolves once it has exited. */
  close(): Promise<void>;
}

/**
 * A pager for stdout, as gh and git page: only where stdout is a terminal, never in a pipe or a
 * file, and not where it is turned off (PLANTS_PAGER or PAGER empty or `cat`, --no-pager). The
 * streams stay those of a terminal (a table as wide as it, colours, which less -R shows). A pager
 * that cannot be started leaves stdout as it is: said on stderr where the person named it.
 */
export async function startPaging(ctx: Pick<Context, 'io' | 'env' | 'startPager'>): Promise<Paging | undefined> {
  if (ctx.io.stdoutTerminal === undefined) return undefined;
  const command = pagerCommand(ctx.env);
  if (command === undefined) return undefined;
  let pager;
  try {
    pager = await ctx.startPager(command.argv, pagerEnv(ctx.env));
  } catch (error) {
    // No less where less was only the default (a slim container, Windows): plain output, quietly.
    if (command.from !== 'the default') {
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such program' : (error as Error).message;
      const pager = `${printable(command.argv.join(' '), Infinity)} (${command.from})`;
      const instead = `writing to the terminal instead (${PAGER_VARIABLE}=cat turns paging off)`;
      ctx.io.stderr.write(`plants: could not start the pager ${pager}: ${printable(why, Infinity)}; ${instead}\n`);
    }
    return undefined;
  }
  // The same streams but stdout, each read from ctx.io when asked for (standard input is made on first use).
  const io = Object.create(ctx.io, { stdout: { value: pager.input, enumerable: true } }) as IOStreams;
  return { io, close: () => pager.close() };
}
