import { declareCommand, usageError, type CommandGroup, type CommandSpec } from '../../command-spec.js';
import type { CompletionOptions } from './run.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/**
 * `plants completion <shell>`, over the commands it is given: the program's own list, which
 * imports this declaration, so it hands itself in rather than being imported from here.
 */
export function completionCommand(commands: () => readonly (CommandSpec | CommandGroup)[]) {
  return declareCommand({
    name: 'completion',
    summary: 'print a completion script for bash, zsh or fish',
    description:
      'The script completes commands, flags, the values of --format and the like, and files where a file goes.',
    arguments: [{ name: 'shell', description: 'bash, zsh or fish', required: true, completes: SHELLS }],
    flags: {},
    examples: [
      '# in ~/.bashrc',
      'source <(plants completion bash)',
      '# in ~/.zshrc',
      'source <(plants completion zsh)',
      'plants completion fish > ~/.config/fish/completions/plants.fish',
    ],
    exitCodes: { ok: 'the script was printed' },
    options: ({ args }): CompletionOptions => {
      const shell = SHELLS.find((each) => each === args.shell);
      if (shell === undefined)
        throw usageError('completion', `no completion for ${JSON.stringify(args.shell)}: expected bash, zsh or fish`);
      // Every command of plants, as declared: what the script completes.
      return { shell, commands: commands() };
    },
    load: () => import('./run.js'),
  });
}
