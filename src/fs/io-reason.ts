/**
 * What a failed file operation means, for people: the words (`no space left on device`), with the
 * code beside them (`ENOSPC`) for a search or a script that matches it. A code without words here
 * is shown alone; an error without a code, by its message.
 */
const WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  EFBIG: 'file too large',
  EBADF: 'bad file descriptor',
  ENFILE: 'too many open files in the system',
};

/** `no space left on device (ENOSPC)`, `EWHATEVER`, or the error's message. */
export function ioReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  const words = WORDS[code];
  return words === undefined ? code : `${words} (${code})`;
}

/** A descriptor could not be made: this process is at its limit of open files (ulimit -n), or the system at its own. */
export function isOutOfDescriptors(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

/** A failure that more room would cure: a full disk, or a quota used up. */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
