import type { OutputOptions } from '../../command-spec.js';

export interface AuthStatusOptions extends OutputOptions {
  baseUrl?: string;
  token?: string;
  timeout?: string;
}

/** What one service said of its token: accepted, refused, no token to check, or not asked (unreachable, …). */
export interface ServiceStatus {
  baseUrl: string;
  /** The token masked, or null where there is none. */
  token: string | null;
  /** Where the token comes from: `config`, `env PLANTS_TOKEN`, `flag`. */
  source: string | null;
  status: 'accepted' | 'refused' | 'no token' | 'unchecked';
  /** Why it is not accepted, for people. */
  message?: string;
}

export interface AuthStatusResult {
  services: ServiceStatus[];
}
