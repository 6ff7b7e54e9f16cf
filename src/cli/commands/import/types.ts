import type { Format } from '../../../import/formats.js';
import type { BulkOptions } from '../../bulk/types.js';

export type ImportOptions = BulkOptions<Format>;
