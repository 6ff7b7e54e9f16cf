export interface ServeOptions {
  host: string;
  port: number;
  store?: string;
  tokens: string[];
  quiet: boolean;
}

export interface ServeResult {
  stoppedBy: string;
}
