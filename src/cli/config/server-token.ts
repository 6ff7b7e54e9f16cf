import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import { RenamedNotDurable, syncDirectory, writeAllSync } from '../../fs/durable-file.js';
import type { FileSystem } from '../../fs/file-system.js';
import { makeDirectory } from '../../fs/make-directory.js';
import { ownFileWriteError } from './own-file-error.js';
import type { Context } from '../context.js';
import { checkToken } from './settings.js';

/** Where `plants serve` keeps the token it made, when given none: one file in the data directory. */
export function serverTokenPath(dataDir: string): string {
  return join(dataDir, 'server-token');
}

/** The token of a local `plants serve`, if it made one; a file others may read, or that holds no token, is an error. */
export function readServerToken({ dataDir, fs }: Pick<Context, 'dataDir' | 'fs'>): string | undefined {
  const path = serverTokenPath(dataDir);
  let text: string;
  try {
    if ((fs.statSync(path).mode & 0o077) !== 0) throw unusable(path, 'can be read by other users');
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof PlantsError) throw error;
    throw unusable(path, `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  try {
    return checkToken(text.trim());
  } catch {
    throw unusable(path, 'does not hold a token');
  }
}

function unusable(path: string, why: string): PlantsError {
  return new PlantsError('usage', `the server token file ${path} ${why}`, {
    hint: `delete it, and plants serve makes a new one (logins with the old token then need plants login again)`,
  });
}

/**
 * The token `plants serve` accepts when given none: the one it made before, so that a saved
 * login survives a restart, else a new one, written (mode 0600, fsynced) where no other file is:
 * two servers starting at once both end up with the first one's token. One that cannot be written
 * (a full disk) is `config_io`, with no temporary file left behind.
 */
export function keepServerToken(place: Pick<Context, 'dataDir' | 'fs'>): {
  token: string;
  path: string;
  made: boolean;
} {
  const path = serverTokenPath(place.dataDir);
  const kept = readServerToken(place);
  if (kept !== undefined) return { token: kept, path, made: false };
  let made: boolean;
  try {
    made = linkNewToken(place.dataDir, path, place.fs);
  } catch (error) {
    throw ownFileWriteError(
      'the server token file',
      path,
      error,
      'fix the data directory, or give plants serve its tokens with --token or PLANTS_SERVER_TOKENS',
    );
  }
  return { token: readServerToken(place) as string, path, made };
}

/**
 * Writes a new token in full to a temporary file, and links it at `path` unless a file is there
 * already (link, unlike rename, never replaces one): true if this one was linked.
 */
function linkNewToken(dataDir: string, path: string, fs: FileSystem): boolean {
  makeDirectory(dataDir, 0o700, fs);
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  let made = true;
  try {
    try {
      writeAllSync(fs, fd, Buffer.from(`${randomBytes(24).toString('base64url')}\n`));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      made = false;
    }
  } finally {
    fs.unlinkSync(temp);
  }
  try {
    syncDirectory(path, fs);
  } catch (error) {
    throw new RenamedNotDurable(error);
  }
  return made;
}
