import type { CompletionModel, FlagModel } from './model.js';

const quoted = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function flagLine(condition: string, flag: FlagModel): string {
  const parts = [`complete -c plants -n ${quoted(condition)}`];
  for (const name of flag.names) parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (flag.takesValue)
    parts.push(
      flag.completes === 'file'
        ? '-r -F'
        : flag.completes === undefined
          ? '-r -f'
          : `-r -f -a ${quoted(flag.completes.join(' '))}`,
    );
  parts.push(`-d ${quoted(flag.description)}`);
  return parts.join(' ');
}

/**
 * The functions the conditions call. Fish's own __fish_seen_subcommand_from X holds when any word
 * typed is X: `get` for `plants config get`, or for `plants create --name get`. __plants_command
 * walks the words as plants reads them instead (flags skipped, and the value of a flag that takes
 * one), so that each condition names exactly one command: `__plants_is config get`.
 */
function helpers(model: CompletionModel): string[] {
  const valued = model.commands.flatMap((command) =>
    command.flags
      .filter((flag) => flag.takesValue)
      .flatMap((flag) => flag.names.map((name) => quoted(`${command.path}:${name}`))),
  );
  const groups = [...model.groups.keys()].map(quoted).join(' ');
  return [
    '# Whether a flag of a command takes a value: the word after it is that value, not a command.',
    'function __plants_valued',
    '    switch "$argv[1]:$argv[2]"',
    `        case ${valued.join(' ')}`,
    '            return 0',
    '    end',
    '    return 1',
    'end',
    '# The command the words before the cursor name: `create`, `config get`, or nothing yet.',
    'function __plants_command',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l command',
    '    set -l skip',
    '    for word in $words',
    '        if set -q skip[1]',
    '            set -e skip[1]',
    '            continue',
    '        end',
    '        switch $word',
    "            case '-*'",
    '                __plants_valued "$command" $word; and set skip 1',
    '                continue',
    '        end',
    '        if not set -q command[1]',
    '            set command $word',
    `        else if not set -q command[2]; and contains -- $command[1] ${groups}`,
    '            set -a command $word',
    '        else',
    '            break',
    '        end',
    '    end',
    '    echo $command',
    'end',
    '# Whether the word before the cursor is $argv[1] (a flag that takes a list of fields: --json).',
    'function __plants_after',
    '    set -l words (commandline -opc)',
    '    test "$words[-1]" = "$argv[1]"',
    'end',
    '# Whether the words before the cursor name the command $argv (none yet, with no $argv).',
    'function __plants_is',
    '    set -l command (__plants_command)',
    '    test "$command" = "$argv"',
    'end',
  ];
}

/** Fish completions for plants, from its declared commands: one `complete` line each. */
export function fishScript(model: CompletionModel): string {
  const lines = [
    '# plants completion for fish. Install it with: plants completion fish > ~/.config/fish/completions/plants.fish',
    ...helpers(model),
    'complete -c plants -f',
  ];
  for (const command of model.top)
    lines.push(
      `complete -c plants -n ${quoted('__plants_is')} -a ${quoted(command.name)} -d ${quoted(command.summary)}`,
    );
  for (const flag of model.globalFlags) lines.push(flagLine('__plants_is', flag));
  for (const [group, commands] of model.groups) {
    for (const command of commands)
      lines.push(
        `complete -c plants -n ${quoted(`__plants_is ${group}`)} -a ${quoted(command.name)} -d ` +
          `${quoted(command.summary)}`,
      );
  }
  for (const command of model.commands) {
    const condition = `__plants_is ${command.path}`;
    for (const flag of command.flags) lines.push(flagLine(condition, flag));
    // A list of fields after a flag that takes one, given or not: `--json id,name`.
    for (const flag of command.flags) {
      if (flag.fields === undefined) continue;
      const fields = quoted(flag.fields.join(' '));
      for (const name of flag.names) {
        lines.push(`complete -c plants -n ${quoted(`${condition}; and __plants_after ${name}`)} -a ${fields}`);
      }
    }
    const [argument] = command.args;
    if (argument === 'file') lines.push(`complete -c plants -n ${quoted(condition)} -F`);
    else if (argument !== undefined)
      lines.push(`complete -c plants -n ${quoted(condition)} -a ${quoted(argument.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}
