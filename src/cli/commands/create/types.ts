import type { NewPlant } from '../../../core/schemas.js';
import type { OutputOptions } from '../../command-spec.js';
import type { Target } from '../../target.js';

export interface CreateOptions extends OutputOptions {
  /** The plant as its flags give it: text, checked against the NewPlant schema when it runs. */
  plant: { id?: string; name?: string; tag?: string };
  target: Target;
}

export interface CreateResult {
  /** The plant as stored: for a remote create, the id sent with the name and tag the service answered. */
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
}
