import type { CommandImplementation } from '../../command-implementation.js';
import type { CommandGroup, CommandSpec } from '../../command-spec.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import { bashScript, zshScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

export type Shell = keyof typeof SCRIPTS;

export interface CompletionOptions {
  shell: Shell;
  /** Every command of plants, as declared: what the script completes. */
  commands: readonly (CommandSpec | CommandGroup)[];
}

export interface CompletionResult {
  shell: Shell;
  script: string;
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
} satisfies CommandImplementation<CompletionOptions, CompletionResult>;

async function run(options: CompletionOptions): Promise<CompletionResult> {
  return { shell: options.shell, script: SCRIPTS[options.shell](completionModel(options.commands)) };
}

/** The script itself, on stdout, for `source <(…)` or a file. */
function renderHuman(result: CompletionResult, io: IOStreams): void {
  io.stdout.write(result.script);
}

function renderJson(result: CompletionResult, io: IOStreams): void {
  writeJsonDocument(io, result);
}
