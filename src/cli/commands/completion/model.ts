import { flagName, type CommandGroup, type CommandSpec, type FlagSpec } from '../../command-spec.js';

/** What completes a value: files, or one of these words; undefined for a value to type freely. */
export type Completes = 'file' | readonly string[] | undefined;

export interface FlagModel {
  /** `--id`, or `-q` and `--quiet`. */
  names: string[];
  /** Whether the word after it is always its value. */
  takesValue: boolean;
  /** For a flag given alone or with a list of fields (`--json id,name`): those fields. */
  fields?: readonly string[];
  completes: Completes;
  description: string;
}

export interface CommandModel {
  /** `create`, or `config get`. */
  path: string;
  summary: string;
  flags: FlagModel[];
  /** What completes each positional argument, in order. */
  args: Completes[];
}

export interface CompletionModel {
  /** The commands and groups at the top, with their summaries. */
  top: { name: string; summary: string }[];
  /** Each group's commands: `config` → list, get, …. */
  groups: Map<string, { name: string; summary: string }[]>;
  commands: CommandModel[];
  /** The flags plants itself takes, before a command. */
  globalFlags: FlagModel[];
}

const HELP: FlagModel = { names: ['-h', '--help'], takesValue: false, completes: undefined, description: 'show help' };

export function flagModel(key: string, flag: FlagSpec): FlagModel {
  const names = [flagName(key)];
  const { description } = flag;
  if (flag.kind === 'boolean') return { names, takesValue: false, completes: undefined, description };
  // The word after a fields flag is its value only where it is a list of them (flag-values.ts).
  if (flag.kind === 'fields') {
    return { names, takesValue: false, fields: flag.fields, completes: undefined, description };
  }
  const completes = flag.completes ?? (flag.kind === 'string' ? flag.choices : undefined);
  return { names, takesValue: true, completes, description };
}

/** The commands as a shell completes them: every command's flags, with --help, and its arguments. */
export function completionModel(entries: readonly (CommandSpec | CommandGroup)[]): CompletionModel {
  const commands: CommandModel[] = [];
  const groups = new Map<string, { name: string; summary: string }[]>();
  const model = (spec: CommandSpec): CommandModel => ({
    path: spec.name,
    summary: spec.summary,
    flags: [...Object.entries(spec.flags).map(([key, flag]) => flagModel(key, flag)), HELP],
    args: (spec.arguments ?? []).map((argument) => argument.completes),
  });
  for (const entry of entries) {
    if ('commands' in entry) {
      groups.set(
        entry.name,
        entry.commands.map((spec) => ({ name: spec.name.split(' ').at(-1) as string, summary: spec.summary })),
      );
      commands.push(...entry.commands.map(model));
    } else commands.push(model(entry));
  }
  return {
    top: entries.map((entry) => ({ name: entry.name, summary: entry.summary })),
    groups,
    commands,
    globalFlags: [
      { names: ['-V', '--version'], takesValue: false, completes: undefined, description: 'print the version' },
      { names: ['--no-color'], takesValue: false, completes: undefined, description: 'no colour' },
      HELP,
    ],
  };
}
