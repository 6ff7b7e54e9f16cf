import { spawn } from 'node:child_process';

/** What to type at the terminal, once it shows `after`. */
export interface Typing {
  after: string;
  keys: string;
}

/**
 * Runs a shell command on a pseudo-terminal (util-linux `script`), as a person at a terminal
 * would, typing `typing.keys` once the terminal shows `typing.after`; resolves to everything the
 * terminal received, typed keys it echoed included.
 */
export function onTerminal(command: string, env: Record<string, string>, typing?: Typing): Promise<string> {
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: { ...env, TERM: 'xterm' },
    stdio: [typing === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let typed = false;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (typing !== undefined && !typed && output.includes(typing.after)) {
      typed = true;
      child.stdin?.write(typing.keys);
    }
  });
  return new Promise((resolve) => child.on('close', () => resolve(output)));
}
