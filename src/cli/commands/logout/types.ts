export interface LogoutResult {
  configPath: string;
  hadToken: boolean;
  envTokenSet: boolean;
}
