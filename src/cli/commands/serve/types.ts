export interface ServeOptions {
  host: string;
  port: number;
  store?: string;
  /** A postgresql:// URL, checked to be one. */
  database?: string;
  /** Connections to PostgreSQL at most. */
  pool: number;
  tokens: string[];
  quiet: boolean;
}

export interface ServeResult {
  stoppedBy: string;
}
