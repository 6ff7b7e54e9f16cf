import type { CompletionModel, FlagModel } from './model.js';

const quoted = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function flagLine(condition: string, flag: FlagModel): string {
  const parts = [`complete -c plants -n ${quoted(condition)}`];
  for (const name of flag.names) parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (flag.takesValue) parts.push(flag.completes === 'file' ? '-r -F' : flag.completes === undefined ? '-r -f' : `-r -f -a ${quoted(flag.completes.join(' '))}`);
  parts.push(`-d ${quoted(flag.description)}`);
  return parts.join(' ');
}

/** Fish completions for plants, from its declared commands: one `complete` line each. */
export function fishScript(model: CompletionModel): string {
  const top = model.top.map((command) => command.name).join(' ');
  const lines = ['# plants completion for fish. Install it with: plants completion fish > ~/.config/fish/completions/plants.fish', 'complete -c plants -f'];
  for (const command of model.top) lines.push(`complete -c plants -n ${quoted(`not __fish_seen_subcommand_from ${top}`)} -a ${quoted(command.name)} -d ${quoted(command.summary)}`);
  for (const flag of model.globalFlags) lines.push(flagLine(`not __fish_seen_subcommand_from ${top}`, flag));
  for (const [group, commands] of model.groups) {
    const names = commands.map((command) => command.name).join(' ');
    for (const command of commands) lines.push(`complete -c plants -n ${quoted(`__fish_seen_subcommand_from ${group}; and not __fish_seen_subcommand_from ${names}`)} -a ${quoted(command.name)} -d ${quoted(command.summary)}`);
  }
  for (const command of model.commands) {
    const [first, second] = command.path.split(' ');
    const condition = second === undefined ? `__fish_seen_subcommand_from ${first}` : `__fish_seen_subcommand_from ${first}; and __fish_seen_subcommand_from ${second}`;
    for (const flag of command.flags) lines.push(flagLine(condition, flag));
    const [argument] = command.args;
    if (argument === 'file') lines.push(`complete -c plants -n ${quoted(condition)} -F`);
    else if (argument !== undefined) lines.push(`complete -c plants -n ${quoted(condition)} -a ${quoted(argument.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}
