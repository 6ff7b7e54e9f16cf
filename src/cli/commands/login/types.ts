import type { OutputOptions } from '../../command-spec.js';

export interface LoginOptions extends OutputOptions {
  token?: string;
  withToken: boolean;
  baseUrl?: string;
}

export interface LoginResult {
  configPath: string;
  baseUrl: string;
  warnings: string[];
}
