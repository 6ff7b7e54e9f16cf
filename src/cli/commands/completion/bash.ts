import type { CommandModel, Completes, CompletionModel } from './model.js';

/** A word in single quotes, for the shell. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const names = (model: { flags: CommandModel['flags'] }) => model.flags.flatMap((flag) => flag.names);

/** The statement that completes a value: files, the given words, or nothing (a value to type). */
function completing(completes: Completes): string {
  if (completes === undefined) return ':';
  if (completes === 'file') return '_plants_files';
  return `_plants_words ${quoted(completes.join(' '))}`;
}

/** `case` arms, one for each distinct statement, over the patterns that lead to it. */
function arms(entries: [pattern: string, statement: string][]): string[] {
  const byStatement = new Map<string, string[]>();
  for (const [pattern, statement] of entries)
    byStatement.set(statement, [...(byStatement.get(statement) ?? []), quoted(pattern)]);
  return [...byStatement].map(([statement, patterns]) => `    ${patterns.join('|')}) ${statement} ;;`);
}

/**
 * A bash completion function for plants, from its declared commands: static tables, so a TAB
 * costs no Node start-up. It also serves zsh, through zsh's bashcompinit, so it keeps to what
 * both shells run (no mapfile).
 */
export function bashFunction(model: CompletionModel): string {
  const valued = model.commands.flatMap((command) =>
    command.flags
      .filter((flag) => flag.takesValue)
      .flatMap((flag) =>
        flag.names.map((name): [string, string] => [`${command.path}:${name}`, completing(flag.completes)]),
      ),
  );
  const groups = [...model.groups].map(([group, commands]): [string, string] => [
    group,
    `_plants_words ${quoted(commands.map((command) => command.name).join(' '))}`,
  ]);
  const flagLists = model.commands.map((command): [string, string] => [
    command.path,
    `_plants_words ${quoted(names(command).join(' '))}`,
  ]);
  const positional = model.commands.flatMap((command) =>
    command.args.map((completes, index): [string, string] => [`${command.path}:${index}`, completing(completes)]),
  );
  const fielded = model.commands.flatMap((command) =>
    command.flags.flatMap(({ fields, names: flagNames }) => {
      if (fields === undefined) return [];
      const statement = `plants_fields=${quoted(fields.join(' '))}`;
      return flagNames.map((name): [string, string] => [`${command.path}:${name}`, statement]);
    }),
  );
  return [
    '_plants_words() { local IFS=$\' \\t\\n\'; COMPREPLY=($(compgen -W "$1" -- "$cur")); }',
    "_plants_files() { type compopt >/dev/null 2>&1 && compopt -o filenames; local IFS=$'\\n'; " +
      'COMPREPLY=($(compgen -f -- "$cur")); }',
    '# Whether a flag of a command takes a value: the word after it is that value, not an argument.',
    '_plants_valued() {',
    '  case "$1:$2" in',
    `    ${valued.map(([pattern]) => quoted(pattern)).join('|')}) return 0 ;;`,
    '  esac',
    '  return 1',
    '}',
    '# Whether a flag of a command takes a list of fields, given or not (--json id,name): the fields in plants_fields.',
    '_plants_fields_of() {',
    '  case "$1:$2" in',
    ...arms(fielded).map((arm) => arm.replace(/ ;;$/, '; return 0 ;;')),
    '  esac',
    '  return 1',
    '}',
    "# Whether a word is a list of those fields, or meant as one (a comma in it): the flag's value.",
    '_plants_field_list() {',
    '  [[ "$1" == *,* ]] && return 0',
    '  local field',
    '  for field in $plants_fields; do [[ "$1" == "$field" ]] && return 0; done',
    '  return 1',
    '}',
    '# The fields, after those already in the list being typed (id,n<TAB>: id,name).',
    '_plants_field_words() {',
    '  local IFS=$\' \\t\\n\' head=""',
    '  [[ "$cur" == *,* ]] && head="${cur%,*},"',
    '  COMPREPLY=($(compgen -P "$head" -W "$plants_fields" -- "${cur##*,}"))',
    '}',
    "# bash splits the line into COMP_WORDS at COMP_WORDBREAKS, ':' among them: http://x:1 comes as",
    '# http : //x : 1, five words where plants reads one. Joined again where the line has no blank',
    "# between them, as bash-completion's _get_comp_words_by_ref -n : does (it may not be installed).",
    '_plants_line_words() {',
    '  local line="$COMP_LINE" word i n',
    '  plants_words=() plants_cword=0',
    '  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do',
    '    word="${COMP_WORDS[i]}" n=${#plants_words[@]}',
    '    if ((i > 0)) && [[ "$line" != [[:blank:]]* ]] && [[ "$word" == :* || "${plants_words[n-1]}" == *: ]]; then',
    '      plants_words[n-1]="${plants_words[n-1]}$word"',
    '    else',
    '      plants_words+=("$word")',
    '    fi',
    '    line="${line#*"$word"}"',
    '    ((i == COMP_CWORD)) && plants_cword=$((${#plants_words[@]} - 1))',
    '  done',
    '}',
    '_plants() {',
    '  local -a plants_words',
    '  local plants_cword=0',
    '  _plants_line_words',
    '  local cur="${plants_words[plants_cword]}"',
    '  _plants_complete',
    "  # bash replaces only its own current word, the part of cur after a ':': offer what goes there.",
    '  local before="${cur%"${COMP_WORDS[COMP_CWORD]}"}" i',
    '  if [[ -n "$before" ]]; then',
    '    for ((i = 0; i < ${#COMPREPLY[@]}; i++)); do COMPREPLY[i]="${COMPREPLY[i]#"$before"}"; done',
    '  fi',
    '  return 0',
    '}',
    '_plants_complete() {',
    '  local prev="${plants_words[plants_cword-1]}"',
    '  local path="" argument=0 word i plants_fields',
    '  COMPREPLY=()',
    "  # The command, then a group's command, are the first words that are neither flags nor their values.",
    '  for ((i = 1; i < plants_cword; i++)); do',
    '    word="${plants_words[i]}"',
    '    [[ "$word" == -* ]] && continue',
    '    ((i > 1)) && _plants_valued "$path" "${plants_words[i-1]}" && continue',
    '    ((i > 1)) && _plants_fields_of "$path" "${plants_words[i-1]}" && _plants_field_list "$word" && continue',
    '    if [[ -z "$path" ]]; then path="$word"',
    `    elif [[ ${[...model.groups.keys()].map((group) => `"$path" == ${quoted(group)}`).join(' || ')} ]]; ` +
      'then path="$path $word"',
    '    else argument=$((argument + 1)); fi',
    '  done',
    '  if [[ "$cur" != -* ]] && _plants_valued "$path" "$prev"; then',
    '    case "$path:$prev" in',
    ...arms(valued),
    '    esac',
    '    return 0',
    '  fi',
    '  if [[ "$cur" != -* ]] && _plants_fields_of "$path" "$prev"; then _plants_field_words; return 0; fi',
    '  if [[ -z "$path" ]]; then',
    `    if [[ "$cur" == -* ]]; then _plants_words ${quoted(names({ flags: model.globalFlags }).join(' '))}; ` +
      `else _plants_words ${quoted(model.top.map((command) => command.name).join(' '))}; fi`,
    '    return 0',
    '  fi',
    '  case "$path" in',
    ...arms(groups).map((arm) => arm.replace(/ ;;$/, '; return 0 ;;')),
    '  esac',
    '  if [[ "$cur" == -* ]]; then',
    '    case "$path" in',
    ...arms(flagLists),
    '    esac',
    '    return 0',
    '  fi',
    '  case "$path:$argument" in',
    ...arms(positional),
    '  esac',
    '  return 0',
    '}',
    'complete -F _plants plants',
  ].join('\n');
}

export function bashScript(model: CompletionModel): string {
  return `# plants completion for bash. Load it with: source <(plants completion bash)\n${bashFunction(model)}\n`;
}

export function zshScript(model: CompletionModel): string {
  return [
    '# plants completion for zsh. Load it with: source <(plants completion zsh)',
    "# zsh runs bash's completion functions through bashcompinit, which it ships.",
    '(( ${+functions[compdef]} )) || { autoload -U +X compinit && compinit; }',
    'autoload -U +X bashcompinit && bashcompinit',
    bashFunction(model),
    '',
  ].join('\n');
}
