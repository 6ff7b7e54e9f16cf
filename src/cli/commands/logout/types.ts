import type { OutputOptions } from '../../command-spec.js';

export interface LogoutOptions extends OutputOptions {
  baseUrl?: string;
}

export interface LogoutResult {
  configPath: string;
  /** The service whose token was removed (or had none). */
  baseUrl: string;
  hadToken: boolean;
  envTokenSet: boolean;
}
