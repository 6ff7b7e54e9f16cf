import { int64FromDecimalText } from '../core/int64.js';
import { usageError } from './command-spec.js';

/**
 * The id of `plants get 2`, as gh takes an issue number, or of `--id 2`: one of the two, checked
 * before anything is read, with the messages of an id flag, named as it was given.
 */
export function idArgument(
  command: string,
  given: { argument: string | undefined; flag: string | undefined },
): string | undefined {
  const { argument, flag } = given;
  if (argument !== undefined && flag !== undefined)
    throw usageError(command, `give the id as an argument or with --id, not both`);
  const [label, text] = argument !== undefined ? ['the id', argument] : ['--id', flag];
  if (text === undefined) return undefined;
  const id = int64FromDecimalText(text);
  if (typeof id === 'object') throw usageError(command, `${label} ${id.problem}`);
  return text;
}
