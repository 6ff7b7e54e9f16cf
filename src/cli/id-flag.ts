import { int64FromDecimalText } from '../core/int64.js';
import { usageError } from './command-spec.js';

/**
 * The id a flag names (`get --id`, `list --after`): base-10 digits, as create's --id. Not a plant's
 * field, so a bad one is a usage error naming the flag. Checked when the command runs, before
 * anything is read, by the field rule itself: a get needs no schema library.
 */
export function idFlag(command: string, flag: string, text: string | undefined): bigint {
  if (text === undefined) throw usageError(command, `give the plant's id with ${flag}`);
  const id = int64FromDecimalText(text);
  if (typeof id === 'object') throw usageError(command, `${flag} ${id.problem}`);
  return id;
}
