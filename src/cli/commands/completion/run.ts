import { bashScript, zshScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';
import type { CompletionOptions, CompletionResult } from './types.js';

export { renderHuman, renderJson } from './render.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function run(options: CompletionOptions): Promise<CompletionResult> {
  return { shell: options.shell, script: SCRIPTS[options.shell](completionModel(options.commands)) };
}
