import type { OutputOptions } from '../../command-spec.js';

export interface LoginOptions extends OutputOptions {
  token?: string;
  withToken: boolean;
  baseUrl?: string;
}

/** Where the saved token came from. */
export type TokenSource = 'flag' | 'stdin' | 'prompt' | 'local server';

export interface LoginResult {
  configPath: string;
  /** The service the token was saved for. */
  baseUrl: string;
  source: TokenSource;
  /** The server token file a local plants serve made, when the token came from it. */
  serverTokenFile?: string;
  warnings: string[];
}
