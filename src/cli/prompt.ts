import type { Context, Env } from './context.js';

/** Set (to anything but nothing), plants asks no question, anywhere: as GH_PROMPT_DISABLED for gh. */
export const PROMPT_DISABLED = 'PLANTS_PROMPT_DISABLED';

/** Whether PLANTS_PROMPT_DISABLED turns every question off. */
export function promptsDisabled(env: Env): boolean {
  return (env[PROMPT_DISABLED] ?? '') !== '';
}

/**
 * Whether a person is there to answer a question, as gh decides: standard input and stdout are
 * terminals (and stderr too, where the question is asked: a question into a log file would wait
 * for an answer nobody knows is asked), and PLANTS_PROMPT_DISABLED is not set. stdout in a pipe or
 * a file means a program reads what plants does: a script, which says what it wants with flags.
 */
export async function canPrompt(ctx: Pick<Context, 'io' | 'env'>): Promise<boolean> {
  const { stdoutTerminal, stderrTerminal } = ctx.io;
  if (promptsDisabled(ctx.env) || stdoutTerminal === undefined || stderrTerminal === undefined) return false;
  return await ctx.io.stdinIsTerminal();
}

/** Whether an answer is yes: `y` or `yes`, in any case, blanks around it aside. Anything else, none included, is no. */
export function isYes(answer: string | undefined): boolean {
  return answer !== undefined && /^y(es)?$/i.test(answer.trim());
}
