import type { CommandGroup, CommandSpec, OutputOptions } from '../../command-spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface CompletionOptions extends OutputOptions {
  shell: Shell;
  /** Every command of plants, as declared: what the script completes. */
  commands: readonly (CommandSpec | CommandGroup)[];
}

export interface CompletionResult {
  shell: Shell;
  script: string;
}
