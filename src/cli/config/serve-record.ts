import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FileSystem, Stats } from '../../fs/file-system.js';
import { writeAllSync } from '../../fs/durable-file.js';
import { makeDirectory } from '../../fs/make-directory.js';
import type { Context } from '../context.js';

/**
 * Where each running `plants serve` that accepts the token kept in the data directory records the
 * base URLs it serves on this machine. `plants login` sends that token only to one of them: any
 * process may listen on some other loopback port (another user's, on a shared machine), and the
 * token must not reach it. A record is a file `<pid>-<port>.json`, `{"pid": …, "urls": […]}`,
 * mode 0600, in a directory of this user's that no one else can write (mode 0700: the serve
 * makes it so), removed when the serve stops; one left by a serve that was killed names a process
 * that is gone, and is ignored (and removed by login).
 */
export function serveRecordsPath(dataDir: string): string {
  return join(dataDir, 'serving');
}

export interface ServeRecord {
  pid: number;
  urls: string[];
}

/**
 * The base URLs on this machine at which a serve listening on `host` (as bound) and `port` is
 * reached, and only it: a wildcard address holds the port on loopback too, so no other process
 * can listen there. Another address (a LAN one) is no loopback URL: login never uses the kept
 * token for it.
 */
export function loopbackUrls(host: string, port: number): string[] {
  if (host === '0.0.0.0') return [`http://127.0.0.1:${port}`];
  // Node listens on :: for both families (ipv6Only is off).
  if (host === '::') return [`http://127.0.0.1:${port}`, `http://[::1]:${port}`];
  if (host === '::1') return [`http://[::1]:${port}`];
  if (/^127\.\d+\.\d+\.\d+$/.test(host)) return [`http://${host}:${port}`];
  return [];
}

/**
 * Records that process `record.pid` serves at `record.urls`, written whole (a reader never sees
 * half a record), in `ctx.dataDir`. Returns the function that removes the record, for when the
 * serve stops. Throws where login would not trust the record: in a directory of another user's.
 */
export function recordServe(
  ctx: Pick<Context, 'dataDir' | 'uid' | 'fs'>,
  record: ServeRecord,
  port: number,
): () => void {
  const { fs } = ctx;
  const dir = serveRecordsPath(ctx.dataDir);
  // Not mkdirSync's `recursive`, which loops for ever on Node 20 where a level cannot be made.
  makeDirectory(dir, 0o700, fs);
  const stats = fs.lstatSync(dir);
  // Never a chmod of another user's directory (nor, through a link, of whatever it points to).
  if (!stats.isDirectory() || !isOwnedBy(stats, ctx.uid)) throw new Error("not a directory of this user's");
  // A directory made before, or by someone else's umask: login trusts no record in one that
  // others may write (isPrivateDirectory), and would never find this one.
  if ((stats.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  const path = join(dir, `${record.pid}-${port}.json`);
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    try {
      writeAllSync(fs, fd, Buffer.from(`${JSON.stringify(record)}\n`));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, path);
  } catch (error) {
    // A full disk: no half record left behind for login to skip for ever.
    removeQuietly(fs, temp);
    throw error;
  }
  return () => removeQuietly(fs, path);
}

/**
 * Whether a serve running now recorded `baseUrl` in `ctx.dataDir`: its origin (scheme, host and
 * port), spelled as the serve printed it.
 */
export function isRecordedServe(
  ctx: Pick<Context, 'dataDir' | 'uid' | 'processState' | 'fs'>,
  baseUrl: string,
): boolean {
  const { fs } = ctx;
  const dir = serveRecordsPath(ctx.dataDir);
  if (!isPrivateDirectory(fs, dir, ctx.uid)) return false;
  const origin = new URL(baseUrl).origin;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false;
  }
  for (const name of names) {
    if (!/^\d+-\d+\.json$/.test(name)) continue;
    const record = readRecord(fs, join(dir, name), ctx.uid);
    if (record === undefined || !record.urls.some((url) => URL.canParse(url) && new URL(url).origin === origin))
      continue;
    const state = ctx.processState(record.pid, 'plants serve');
    if (state === 'running') return true;
    // A serve killed left its record, which names a process that is gone. One whose id another
    // process has (another user's or program's, or a serve that does not show as one) is not
    // trusted, but kept: that may be the serve itself, whose record login must not take away.
    if (state === 'gone') removeQuietly(fs, join(dir, name));
  }
  return false;
}

/**
 * A directory (not a link to one) of this user's, that no one else can write, nor put a record of
 * their own in. Its owner could: another user's directory is no place to trust, even if root may
 * write in it.
 */
function isPrivateDirectory(fs: FileSystem, dir: string, uid: number | undefined): boolean {
  try {
    const stats = fs.lstatSync(dir);
    return stats.isDirectory() && isOwnedBy(stats, uid) && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Owned by user `uid` (Context.uid), where there are users to tell (not on Windows). */
function isOwnedBy(stats: Stats, uid: number | undefined): boolean {
  return uid === undefined || stats.uid === uid;
}

/**
 * The record at `path`, if it is one: a regular file of this user's, holding a record. Anything
 * else named like one is never opened: a FIFO would block the read, and login with it, for ever.
 * Checked before it is read: in a directory only this user can write, nobody else can put
 * something else in its place meanwhile.
 */
function readRecord(fs: FileSystem, path: string, uid: number | undefined): ServeRecord | undefined {
  try {
    const stats = fs.lstatSync(path);
    if (!stats.isFile() || !isOwnedBy(stats, uid)) return undefined;
    const record = JSON.parse(fs.readFileSync(path, 'utf8')) as Partial<ServeRecord>;
    if (
      !Number.isSafeInteger(record.pid) ||
      !Array.isArray(record.urls) ||
      !record.urls.every((url) => typeof url === 'string')
    )
      return undefined;
    return record as ServeRecord;
  } catch {
    return undefined;
  }
}

function removeQuietly(fs: FileSystem, path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // Gone already, or not ours to remove: a record that names no running serve is ignored anyway.
  }
}
