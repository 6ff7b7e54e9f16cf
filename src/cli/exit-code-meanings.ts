import type { EXIT } from './exit-codes.js';

/** An exit code by name: those of exit-codes.ts, and a command stopped by a signal. */
export type ExitName = keyof typeof EXIT | 'interrupted';

/**
 * What each exit code means, as the EXIT CODES of `plants --help` say it; a command's help says
 * it in its own words where they are more precise. A Record over every name: a new exit code does
 * not compile until its meaning is here.
 */
export const EXIT_MEANINGS: Record<ExitName, { shown: string; meaning: string }> = {
  ok: { shown: '0', meaning: 'done' },
  refused: { shown: '1', meaning: 'refused: a duplicate id, no plant with the id, or a 400 Error from the service' },
  usage: { shown: '2', meaning: 'usage error or invalid input, found before anything was sent' },
  auth: { shown: '3', meaning: 'authentication missing or refused (run plants login)' },
  unavailable: {
    shown: '4',
    meaning:
      'the store could not be used: service unreachable, timed out or outside the contract, or the local store ' +
      "unreadable, not a plants store, or locked; or a file of plants' own (the config file, the server's token " +
      'file) could not be written; or the output could not be written (stdout, or stderr of a command that would ' +
      'exit 0); or no file could be opened: the limit of open files (ulimit -n)',
  },
  internal: { shown: '70', meaning: 'internal error (a bug: run with PLANTS_DEBUG=1 and report it)' },
  interrupted: {
    shown: '129, 130, 143',
    meaning: 'interrupted by SIGHUP (its terminal closed), Ctrl-C (SIGINT) or SIGTERM, after its summary',
  },
};

/**
 * The exit codes a command's help lists: what success means in its words, and each other code it
 * can exit with, in its words or (`true`) as EXIT_MEANINGS says. Usage and internal errors are
 * possible for every command, and always listed; so is output that cannot be written (exit 4, said
 * after the command's own meaning of 4, if it has one).
 */
export type ExitCodesHelp = { ok: string } & Partial<Record<Exclude<ExitName, 'ok'>, string | true>>;

const ORDER: readonly ExitName[] = ['ok', 'refused', 'usage', 'auth', 'unavailable', 'internal', 'interrupted'];

/** What exit 4 also means, for every command (output-failure.ts). */
const OUTPUT_LOST = 'the output could not be written';

/** The rows of an EXIT CODES section: every code for the program's help, else a command's. */
export function exitCodeRows(codes?: ExitCodesHelp): [string, string][] {
  const own = codes?.unavailable;
  const unavailable = own === undefined ? OUTPUT_LOST : own === true ? true : `${own}; or ${OUTPUT_LOST}`;
  const every = () => Object.fromEntries(ORDER.map((name) => [name, true]));
  const listed: Partial<Record<ExitName, string | true>> =
    codes === undefined ? every() : { usage: true, internal: true, ...codes, unavailable };
  return ORDER.flatMap((name) => {
    const meaning = listed[name];
    if (meaning === undefined) return [];
    return [[EXIT_MEANINGS[name].shown, meaning === true ? EXIT_MEANINGS[name].meaning : meaning]];
  });
}
