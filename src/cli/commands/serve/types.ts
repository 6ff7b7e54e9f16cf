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
  logFormat: 'text' | 'json';
  /** The admin listener's port, when --admin-port is given (else PLANTS_ADMIN_PORT, else none). */
  adminPort?: number;
  adminHost?: string;
  /** How long to keep serving after a stop signal, /readyz answering 503 meanwhile. */
  shutdownDelaySeconds: number;
}

export interface ServeResult {
  stoppedBy: string;
}
