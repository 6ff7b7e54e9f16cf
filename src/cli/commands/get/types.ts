import type { NewPlant } from '../../../core/schemas.js';
import type { OutputOptions } from '../../command-spec.js';
import type { Target } from '../../target.js';

export interface GetOptions extends OutputOptions {
  /** As typed: checked when it runs. */
  id?: string;
  target: Target;
}

export interface GetResult {
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
}
