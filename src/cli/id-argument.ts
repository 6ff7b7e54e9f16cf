import { usageError } from './command-spec.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The id of `plants get 2`, as gh takes an issue number, or of `--id 2`: one of the two, checked
 * before anything is read, with the messages of an id flag, named as it was given. Digits and a
 * range here: the schema that checks ids is not loaded at start-up.
 */
export function idArgument(command: string, given: { argument: string | undefined; flag: string | undefined }): string | undefined {
  const { argument, flag } = given;
  if (argument !== undefined && flag !== undefined) throw usageError(command, `give the id as an argument or with --id, not both`);
  const [label, text] = argument !== undefined ? ['the id', argument] : ['--id', flag];
  if (text === undefined) return undefined;
  if (!/^[+-]?[0-9]+$/.test(text)) throw usageError(command, `${label} must be a base-10 integer, got ${JSON.stringify(text)}`);
  const id = BigInt(text);
  if (id < INT64_MIN || id > INT64_MAX) throw usageError(command, `${label} must be between ${INT64_MIN} and ${INT64_MAX}, got ${text}`);
  return text;
}
