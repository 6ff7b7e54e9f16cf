import { DecimalInt64Schema } from '../core/schemas.js';
import { usageError } from './command-spec.js';

/**
 * The id a flag names (`get --id`, `list --after`): base-10 digits, as create's --id. Not a plant's
 * field, so a bad one is a usage error naming the flag. Checked when the command runs, before
 * anything is read: the schema is not loaded at start-up.
 */
export function idFlag(command: string, flag: string, text: string | undefined): bigint {
  if (text === undefined) throw usageError(command, `give the plant's id with ${flag}`);
  const id = DecimalInt64Schema.safeParse(text);
  if (id.success) return id.data;
  throw usageError(command, `${flag} ${id.error.issues[0]?.message ?? 'must be a base-10 integer'}`);
}
