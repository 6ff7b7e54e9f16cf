import { bool, JSON_FLAG, usageError, type CommandGroup, type CommandSpec } from '../../command-spec.js';
import { SHELLS, type CompletionOptions, type Shell } from './types.js';

/**
 * `plants completion <shell>`, over the commands it is given: the program's own list, which
 * imports this declaration, so it hands itself in rather than being imported from here.
 */
export function completionCommand(commands: () => readonly (CommandSpec | CommandGroup)[]): CommandSpec<CompletionOptions> {
  return {
    name: 'completion',
    summary: 'print a completion script for bash, zsh or fish',
    arguments: [{ name: 'shell', description: 'bash, zsh or fish', required: true, completes: SHELLS }],
    flags: [JSON_FLAG],
    help:
      '\nThe script completes commands, flags, the values of --format and the like, and files where a file goes.\n\n' +
      'Examples:\n' +
      '  source <(plants completion bash)                    # in ~/.bashrc\n' +
      '  source <(plants completion zsh)                     # in ~/.zshrc\n' +
      '  plants completion fish > ~/.config/fish/completions/plants.fish',
    options: (input) => {
      const shell = input.args[0] as string;
      if (!(SHELLS as readonly string[]).includes(shell)) throw usageError('completion', `no completion for ${JSON.stringify(shell)}: expected bash, zsh or fish`);
      return { shell: shell as Shell, json: bool(input, 'json'), commands: commands() };
    },
    load: () => import('./run.js'),
  };
}
