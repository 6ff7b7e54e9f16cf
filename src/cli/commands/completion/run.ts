import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import { bashScript, zshScript } from './bash.js';
import type { CompletionOptions, Shell } from './command.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';

export interface CompletionResult {
  shell: Shell;
  script: string;
}

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function run(options: CompletionOptions): Promise<CompletionResult> {
  return { shell: options.shell, script: SCRIPTS[options.shell](completionModel(options.commands)) };
}

/** The script itself, on stdout, for `source <(…)` or a file. */
export function renderHuman(result: CompletionResult, io: IOStreams): void {
  io.stdout.write(result.script);
}

export function renderJson(result: CompletionResult, io: IOStreams): void {
  writeJsonDocument(io, result);
}
