import type { IdFormat } from '../../../import/formats.js';
import type { BulkOptions, BulkResult } from '../../bulk/types.js';
import type { OutputOptions } from '../../command-spec.js';
import type { Target } from '../../target.js';

/** One plant by --id, or many from a file (--from). */
export type DeleteOptions = ({ many: false; id: string; target: Target } & OutputOptions) | { many: true; bulk: BulkOptions<IdFormat>; json: boolean };

export type DeleteResult = { many: false; id: bigint; where: string } | { many: true; bulk: BulkResult };
