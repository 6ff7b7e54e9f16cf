import { fdatasync, syncDirectory, writeAll } from '../../fs/durable-file.js';
import type { FileSystem } from '../../fs/file-system.js';
import { storeIoError, storeMaybeWrittenError } from '../store-errors.js';
import { walId, type WalFile } from './wal.js';

/**
 * Appends batches to the WAL through one open file, kept open between batches (a server appends
 * hundreds a second), and reopened when the WAL on disk is another file.
 */
export class WalAppender {
  private fd: number | undefined;
  private fdId: bigint | undefined;
  /**
   * Whether the WAL's name is not known durable yet: its directory is synced at the first append
   * through each opening, until that succeeds. Not only for a WAL this process makes:
   * the writer that made it may have died before its directory sync, or seen that sync fail, and
   * a line acknowledged in a file whose name a power cut can undo would be lost with it.
   */
  private nameUnsynced = false;

  constructor(
    private readonly path: string,
    private readonly fs: FileSystem,
  ) {}

  /**
   * Appends the lines durably (every byte written, fdatasynced; the file's directory entry too, once)
   * after the WAL's `wholeBytes`, cutting a torn tail first. Returns the WAL file as it now is. On
   * failure (a full disk) the WAL is cut back to `wholeBytes`: what was not acknowledged
   * is not left for a later read to find.
   */
  async append(lines: readonly string[], seen: WalFile, wholeBytes: number): Promise<WalFile> {
    const data = Buffer.from(`${lines.join('\n')}\n`);
    let fd: number | undefined;
    try {
      if (this.fd !== undefined && (seen.id === undefined || seen.id !== this.fdId)) this.close();
      if (this.fd === undefined) {
        // O_APPEND: every write lands at the end, also after a short one.
        this.fd = this.fs.openSync(this.path, 'a');
        this.fdId = walId(this.fs.fstatSync(this.fd, { bigint: true }));
        this.nameUnsynced = true;
      }
      fd = this.fd;
      // Only ever shortened: a size larger than the file would pad it with NUL bytes.
      if (this.fs.fstatSync(fd).size > wholeBytes) this.fs.ftruncateSync(fd, wholeBytes);
      await writeAll(this.fs, fd, data);
      await fdatasync(this.fs, fd);
      if (this.nameUnsynced) {
        syncDirectory(this.path, this.fs);
        this.nameUnsynced = false;
      }
      return { id: this.fdId, size: wholeBytes + data.length };
    } catch (error) {
      // Not durable, so reported as not done: take the lines back out, lest a read find them.
      let takenBack = true;
      if (fd !== undefined) {
        try {
          this.fs.ftruncateSync(fd, wholeBytes);
          this.fs.fdatasyncSync(fd);
        } catch {
          takenBack = false;
        }
      }
      this.close();
      throw takenBack
        ? storeIoError(this.path, 'append to', error)
        : storeMaybeWrittenError(this.path, 'append to', error);
    }
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    this.fdId = undefined;
    if (fd !== undefined) {
      try {
        this.fs.closeSync(fd);
      } catch {
        // A close that fails loses nothing: every append was fdatasynced before it was acknowledged.
      }
    }
  }
}

/** Removes the WAL once checkpointed; one left behind (a failure here) is checkpointed again harmlessly. */
export function removeWal(path: string, fs: FileSystem): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(path, 'remove', error);
  }
}
