export interface ImportSettings {
  /** `skip`: a duplicate id counts as already there, not as a failure. */
  onConflict: 'fail' | 'skip';
  /** Stop at the first failed row. */
  failFast: boolean;
  /** Validate every row, send nothing. */
  dryRun: boolean;
}
