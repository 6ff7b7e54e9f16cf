import { NODE_FS } from '../fs/file-system.js';

let hungUp = false;

/** A SIGHUP reached this process: its terminal may be gone (onStopSignal in process-context.ts). */
export function noteHangUp(): void {
  hungUp = true;
}

/**
 * Ends a process that took a SIGHUP and finished its command, where a standard stream is a
 * terminal that was hung up (its window closed, its ssh session dropped): Node 20 aborts as it
 * exits (SIGABRT, exit 134) when it cannot reset such a terminal (nodejs/node#51519, fixed in Node
 * 24). The process ends instead as SIGHUP's own action ends it, killed by it, which a shell reports
 * as 129, the exit code it would have had. Elsewhere it returns, and the process exits with its code.
 */
export async function endAfterHangUp(): Promise<void> {
  if (!hungUp || process.platform === 'win32' || !(await terminalHungUp())) return;
  process.removeAllListeners('SIGHUP');
  process.kill(process.pid, 'SIGHUP');
}

/**
 * Whether a standard stream is a character device other than /dev/null that is not a terminal:
 * one that was, and was hung up (its reads end, its writes fail with EIO).
 */
async function terminalHungUp(): Promise<boolean> {
  const { isatty } = await import('node:tty');
  const rdevOf = (look: () => { rdev: number; isCharacterDevice(): boolean }) => {
    try {
      const info = look();
      return info.isCharacterDevice() ? info.rdev : undefined;
    } catch {
      return undefined;
    }
  };
  const devNull = rdevOf(() => NODE_FS.statSync('/dev/null'));
  return [0, 1, 2].some((fd) => {
    if (isatty(fd)) return false;
    const rdev = rdevOf(() => NODE_FS.fstatSync(fd));
    return rdev !== undefined && rdev !== devNull;
  });
}
