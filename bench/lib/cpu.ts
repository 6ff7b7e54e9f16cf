import { readdirSync, readFileSync } from 'node:fs';

// Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ): 100 on every Linux Node runs on.
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The processes named `postgres` (the server and its backends) on this machine. */
export function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * What share of a core each named group of processes used while `work` ran (1: one core busy the
 * whole time), and this process, the load generator. Each group is listed before and after: a
 * process that started meanwhile (a backend a pool opened) counts in full, one that ended does not.
 */
export async function cpuShares<T>(
  groups: Record<string, () => number[]>,
  work: () => Promise<T>,
): Promise<{ result: T; shares: Record<string, number> }> {
  const before = new Map<number, number>();
  for (const list of Object.values(groups)) for (const pid of list()) before.set(pid, cpuSeconds(pid));
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const self = process.cpuUsage(selfBefore);
  const shares: Record<string, number> = {};
  for (const [name, list] of Object.entries(groups)) {
    shares[name] = list().reduce((sum, pid) => sum + cpuSeconds(pid) - (before.get(pid) ?? 0), 0) / seconds;
  }
  shares['load generator'] = (self.user + self.system) / 1e6 / seconds;
  return { result, shares };
}
