import { spawn } from 'node:child_process';

/**
 * Runs a shell command on a pseudo-terminal (util-linux `script`), as a person at a terminal
 * would; resolves to everything the terminal received.
 */
export function onTerminal(command: string, env: Record<string, string>): Promise<string> {
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { ...env, TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve) => child.on('close', () => resolve(output)));
}
