import { PlantsError } from '../core/errors.js';
import { flagName, negated, type CommandGroup, type CommandSpec, type Flags } from './command-spec.js';

/** Flags every command takes besides its own: help, and the program's --no-color. */
const EVERY_COMMAND = ['-h', '--help', '--no-color'];

/**
 * The command or group a command line names (`create`, `config`), if it names one: its first word
 * that is no flag, as commander takes it (the program's own flags take no value).
 */
export function namedEntry(
  commands: readonly (CommandSpec | CommandGroup)[],
  argv: readonly string[],
): CommandSpec | CommandGroup | undefined {
  const first = argv.find((word) => !word.startsWith('-'));
  return commands.find((candidate) => candidate.name === first);
}

/**
 * The command a command line names (`create`, `config get`), if it names one: the words before it may only be flags.
 */
export function commandOf(
  commands: readonly (CommandSpec | CommandGroup)[],
  argv: readonly string[],
): CommandSpec | undefined {
  const entry = namedEntry(commands, argv);
  if (entry === undefined || !('commands' in entry)) return entry;
  const words = argv.filter((word) => !word.startsWith('-'));
  return entry.commands.find((spec) => spec.name === `${entry.name} ${words[1]}`);
}

/**
 * Refuses a flag that takes a value followed by one of the command's own flags, as in
 * `plants create --name --tag x`: commander would take `--tag` as the name, and `x` as an
 * argument, so a forgotten value would make a plant named "--tag". A value that looks like a flag
 * is given joined to its flag: `--name=--tag`. `--name ""` and `--name=` are values (an empty
 * name); anything after `--` is no flag.
 */
export function refuseFlagsAsValues(flags: Flags, argv: readonly string[]): void {
  const takesValue = new Set<string>();
  const names = new Set(EVERY_COMMAND);
  for (const [key, flag] of Object.entries(flags)) {
    names.add(flagName(key));
    // A fields flag takes its value only where one follows it (fieldListsJoined): `--json --local` is two flags.
    if (flag.kind === 'string' || flag.kind === 'strings') takesValue.add(flagName(key));
  }
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  words.forEach((word, i) => {
    const next = words[i + 1];
    if (!takesValue.has(word) || next === undefined) return;
    // `--tag=x` names the flag --tag; what follows its `=` may be a secret (--token=…): never repeated.
    const named = next.startsWith('--') && next.includes('=') ? next.slice(0, next.indexOf('=')) : next;
    if (!names.has(named)) return;
    throw new PlantsError('usage', `${word} has no value: the ${named} after it is a flag of this command`, {
      hint: `for a value that looks like a flag, join the two: ${word}=${named}`,
    });
  });
}

/**
 * Refuses a flag given with its `--no-…` form (`--tag x --no-tag`): commander keeps whichever
 * came last, and which one the user meant is not known.
 */
export function refuseContradictions(flags: Flags, argv: readonly string[]): void {
  const end = argv.indexOf('--');
  const words = (end === -1 ? argv : argv.slice(0, end)).map((word) =>
    word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word,
  );
  for (const key of Object.keys(flags)) {
    const base = negated(key);
    if (base === undefined || !(base in flags)) continue;
    if (words.includes(flagName(key)) && words.includes(flagName(base))) {
      throw new PlantsError('usage', `${flagName(base)} and ${flagName(key)} cannot be used together`, {
        hint: 'give one of the two',
      });
    }
  }
}

/**
 * The command line as commander is to read it, where a flag takes fields (`--json`): the word
 * after it is its value where it is a list of fields (`id`, `name,tag`), has a comma in it (a list
 * with a mistake, refused naming the fields), or the command takes no argument it could be. Any
 * other word is left to what follows: `plants get --json 3` gets plant 3, as it did before --json
 * took fields. Commander takes any word that is no flag as the value of a flag whose value is
 * optional: such a flag, given alone, is moved after the words (before `--`), where there is
 * none. `--json=id,name` is always the fields.
 */
export function fieldListsJoined(command: CommandSpec, argv: readonly string[]): string[] {
  const fieldFlags = new Map<string, readonly string[]>();
  for (const [key, flag] of Object.entries(command.flags)) {
    if (flag.kind === 'fields') fieldFlags.set(flagName(key), flag.fields);
  }
  if (fieldFlags.size === 0) return [...argv];
  const noArgument = command.arguments.length === 0;
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  const kept: string[] = [];
  const alone: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    const next = words[i + 1];
    const fields = fieldFlags.get(word);
    // As commander tells a flag: `-` alone is a word (standard input), not a flag.
    if (fields === undefined || next === undefined || (next.length > 1 && next.startsWith('-'))) kept.push(word);
    else if (noArgument || next.includes(',') || fields.includes(next)) {
      kept.push(`${word}=${next}`);
      i += 1;
    } else alone.push(word);
  }
  refuseFieldsTwice([...kept, ...alone], [...fieldFlags.keys()]);
  return [...kept, ...alone, ...(end === -1 ? [] : argv.slice(end))];
}

/** A fields flag given twice, once with fields (`--json id --json`): which the user meant is not known. */
function refuseFieldsTwice(words: readonly string[], names: readonly string[]): void {
  for (const name of names) {
    const given = words.filter((word) => word === name || word.startsWith(`${name}=`));
    if (given.length > 1 && given.some((word) => word !== name)) {
      const message = `${name} was given more than once: give it once, with its fields or alone`;
      throw new PlantsError('usage', message, { hint: `for example ${name}=id,name` });
    }
  }
}
