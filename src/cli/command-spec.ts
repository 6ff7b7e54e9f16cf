import { PlantsError } from '../core/errors.js';
import { runImplementation, type CommandImplementation } from './command-implementation.js';
import type { Context } from './context.js';
import type { ExitCodesHelp } from './exit-code-meanings.js';

/**
 * How a command is declared: its name, arguments and flags, its help, how they become its options,
 * and how to load what runs it. The type of its flags follows from their declarations (as wrangler's
 * createCommand does): no flag is read by a string key. program.ts lists the declarations;
 * commander-program.ts makes the commander program of them, help.ts their help, and completion the
 * shell's completions. Nothing of a command's implementation is loaded until it runs.
 */
export interface CommandSpec {
  /** `create`, or `config get` for a command of a group. */
  name: string;
  summary: string;
  /** More about it in `--help`, after the summary: paragraphs, wrapped to the terminal. */
  description?: string | undefined;
  arguments: readonly ArgumentSpec[];
  flags: Flags;
  examples: readonly string[];
  exitCodes: ExitCodesHelp;
  /**
   * The command of a command line: throws a usage error for a flag missing, repeated, out of range,
   * or not going with another.
   */
  parse(input: ParsedInput): ParsedCommand;
}

/** A command line's command, its options checked: ready to run. */
export interface ParsedCommand {
  /** The options its run is given. */
  options: unknown;
  /** Whether it prints one JSON document (--json): a failure is then reported as one too. */
  json: boolean;
  /** Loads its implementation (only now: `--version` loads none), runs it and shows the result: the exit code. */
  run(ctx: Context): Promise<number>;
}

/** Commands under one name: `plants config get`, `plants auth status`. */
export interface CommandGroup {
  name: string;
  summary: string;
  description?: string;
  examples: readonly string[];
  exitCodes: ExitCodesHelp;
  commands: readonly CommandSpec[];
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  /** What completes it in a shell: a file, or one of these words. */
  completes?: Completes;
}

/** What completes a value in a shell: files, or one of these words. */
export type Completes = 'file' | readonly string[];

interface FlagBase {
  description: string;
  /** A flag shared by many commands (where one works), shown under INHERITED FLAGS. */
  inherited?: boolean;
}

/** A flag that takes one value: given twice, a usage error. */
export interface StringFlag extends FlagBase {
  kind: 'string';
  /** How its value is shown in help: `<id>`. */
  value: string;
  required?: boolean;
  /** The value when it is not given. */
  default?: string;
  /**
   * Where the value comes from when it is not given, for help only (a setting, a variable): `$PLANTS_STORE, config, or
   * the data directory`.
   */
  defaultFrom?: string;
  /** The only values it takes. */
  choices?: readonly string[];
  completes?: Completes;
}

/** A flag given any number of times, each with a value. */
export interface StringsFlag extends FlagBase {
  kind: 'strings';
  value: string;
  defaultFrom?: string;
  completes?: Completes;
}

export interface BooleanFlag extends FlagBase {
  kind: 'boolean';
}

/**
 * A flag given alone or with a list of fields, as gh's `--json`: `--json` (everything), `--json
 * id,name` or `--json=id,name` (only those). Alone, it takes no word after it that is no list of
 * fields (flag-values.ts: `plants get --json 3` gets plant 3).
 */
export interface FieldsFlag extends FlagBase {
  kind: 'fields';
  /** How its value is shown in help: `[fields]`. */
  value: string;
  /** The fields it takes, in the order a document writes them. */
  fields: readonly string[];
}

export type FlagSpec = StringFlag | StringsFlag | BooleanFlag | FieldsFlag;

/** A command's flags by the name of their options: `baseUrl` is `--base-url`. */
export type Flags = Readonly<Record<string, FlagSpec>>;

/** The value of a flag as its declaration says: one of its choices, always there with a default or when required. */
type FlagValue<F extends FlagSpec> = F extends BooleanFlag
  ? boolean
  : F extends FieldsFlag
    ? FieldsValue<F['fields'][number]>
    : F extends StringsFlag
      ? string[]
      : F extends { choices: readonly (infer Choice extends string)[] }
        ? F extends { default: string } | { required: true }
          ? Choice
          : Choice | undefined
        : F extends { default: string } | { required: true }
          ? string
          : string | undefined;

/** A fields flag: not given (false), given alone (true), or the fields named, in their declared order. */
export type FieldsValue<Field extends string> = boolean | readonly Field[];

export type FlagValues<F extends Flags> = { readonly [K in keyof F]: FlagValue<F[K]> };

/** The positional arguments by name: a required one is always there. */
export type ArgumentValues<A extends readonly ArgumentSpec[]> = {
  readonly [E in A[number] as E['name']]: E['required'] extends true ? string : string | undefined;
};

/**
 * What a declaration's `options` is given: the flags, checked against their declarations; the arguments; the flags
 * given on the command line.
 */
export interface DeclaredInput<F extends Flags, A extends readonly ArgumentSpec[]> {
  flags: FlagValues<F>;
  args: ArgumentValues<A>;
  given: ReadonlySet<keyof F>;
}

/** What commander parsed: positional arguments, and each flag's value by its key. */
export interface ParsedInput {
  args: readonly (string | undefined)[];
  flags: Readonly<Record<string, string | boolean | string[] | undefined>>;
}

export interface CommandDeclaration<F extends Flags, A extends readonly ArgumentSpec[], Options, Result> {
  name: string;
  summary: string;
  description?: string;
  arguments?: A;
  flags: F;
  /** Command lines, shown after `$ `; a line starting `#` says what the next one does. */
  examples: readonly string[];
  exitCodes: ExitCodesHelp;
  /** The command's options from its flags and arguments: throws a usage error for flags that do not go together. */
  options(input: DeclaredInput<F, A>): Options;
  /** What runs it: the implementation its run.ts exports, which takes the options `options` makes. */
  load(): Promise<{ implementation: CommandImplementation<Options, Result> }>;
}

/**
 * A command, declared: its options are what `options` makes of its flags, each checked first as
 * declared (required, one of its choices; given once, as commander-program.ts parses) and given
 * its default; what runs it takes those options, or the declaration does not compile.
 */
export function declareCommand<
  const F extends Flags,
  const A extends readonly ArgumentSpec[] = [],
  Options extends object = object,
  Result = unknown,
>(declaration: CommandDeclaration<F, A, Options, Result>): CommandSpec {
  const { options, load, arguments: args = [] as unknown as A, ...rest } = declaration;
  return {
    ...rest,
    arguments: args,
    parse: (input) => {
      const parsed = options(declaredInput(declaration.name, declaration.flags, args, input));
      const json = 'json' in parsed && parsed.json === true;
      return { options: parsed, json, run: (ctx) => runImplementation(load, parsed, json, ctx) };
    },
  };
}

function declaredInput<F extends Flags, A extends readonly ArgumentSpec[]>(
  command: string,
  flags: F,
  args: A,
  input: ParsedInput,
): DeclaredInput<F, A> {
  const values: Record<string, unknown> = {};
  const given = new Set<keyof F>();
  for (const [key, flag] of Object.entries(flags)) {
    // Commander gives `--no-tag` as tag = false (its negation of --tag): here it is noTag = true.
    const negates = negated(key);
    const value = input.flags[key] ?? (negates !== undefined && input.flags[negates] === false ? true : undefined);
    if (value !== undefined && value !== false) given.add(key);
    if (flag.kind === 'boolean') values[key] = value === true;
    // A fields flag: true given alone, its fields given with a list (--json id,name).
    else if (flag.kind === 'fields' && typeof value === 'string') values[key] = fieldsOf(command, key, flag, value);
    else if (flag.kind === 'fields') values[key] = value === true;
    else if (flag.kind === 'strings') values[key] = Array.isArray(value) ? value : [];
    else values[key] = stringValue(command, key, flag, value);
  }
  const named = Object.fromEntries(args.map((arg, i) => [arg.name, input.args[i]]));
  return { flags: values as FlagValues<F>, args: named as ArgumentValues<A>, given };
}

/** The key a `--no-…` flag negates (`noTag`: `tag`), if it is one. */
export function negated(key: string): string | undefined {
  return /^no[A-Z]/.test(key) ? `${key.charAt(2).toLowerCase()}${key.slice(3)}` : undefined;
}

function stringValue(command: string, key: string, flag: StringFlag, value: unknown): string | undefined {
  const name = flagName(key);
  if (typeof value !== 'string') {
    if (flag.required === true) throw usageError(command, `${name} is required`);
    return flag.default;
  }
  if (flag.choices !== undefined && !flag.choices.includes(value)) {
    throw usageError(command, `${name} must be ${oneOf(flag.choices)}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The fields a list names (`name,id`), in their declared order, each once; one that is none, a usage error. */
function fieldsOf(command: string, key: string, flag: FieldsFlag, value: string): readonly string[] {
  const named = value.split(',');
  const unknown = named.find((field) => !flag.fields.includes(field));
  if (unknown !== undefined) {
    const what = unknown === '' ? 'an empty field name' : `unknown field ${JSON.stringify(unknown)}`;
    const fields = `the fields are ${flag.fields.join(', ')} (comma-separated)`;
    throw usageError(command, `${flagName(key)}: ${what}; ${fields}, or ${flagName(key)} alone for the whole document`);
  }
  return flag.fields.filter((field) => named.includes(field));
}

/** `fail or skip`; `one of ndjson, csv, json`. */
function oneOf(choices: readonly string[]): string {
  return choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`;
}

/** The flag of an option's key: `baseUrl` is `--base-url`. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Options every command has: one JSON document on stdout instead of text. */
export interface OutputOptions {
  json: boolean;
}

export const JSON_FLAG = {
  kind: 'boolean',
  description: 'print the outcome, or the failure, as one JSON document on stdout',
} as const satisfies BooleanFlag;

/** --json of a command whose document is a plant, plants, or of these fields: with fields, only those. */
export function jsonFieldsFlag<const Field extends string>(fields: readonly Field[], what = 'the plants') {
  return {
    kind: 'fields',
    value: '[fields]',
    fields,
    description: `${JSON_FLAG.description}; with fields (${fields.join(',')}), only those of ${what}`,
  } as const satisfies FieldsFlag;
}

/** What a fields flag's value asks for: JSON or not, and the fields where it names some. */
export interface JsonOutput<Field extends string> {
  json: boolean;
  fields?: readonly Field[];
}

export function jsonOutput<Field extends string>(value: FieldsValue<Field>): JsonOutput<Field> {
  return typeof value === 'boolean' ? { json: value } : { json: true, fields: value };
}

/** A usage error, with a hint to the help of the command. */
export function usageError(command: string, message: string): PlantsError {
  return new PlantsError('usage', message, { hint: `see plants ${command} --help` });
}

/** The fields of `values` that are not undefined: options without the flags not given. */
export function defined<T extends object>(
  values: T,
): { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
} {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as never;
}
