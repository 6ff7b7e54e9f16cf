import { isPlantsError } from '../../core/errors.js';
import { removeTempFiles, RenamedNotDurable, replaceFileSync } from '../../fs/durable-file.js';
import type { FileSystem } from '../../fs/file-system.js';
import { storeIoError } from '../store-errors.js';
import { DatabaseWriter } from './database-file.js';
import { DatabaseReader, fileBytes } from './database-reader.js';
import { Snapshot } from './snapshot.js';
import { EntriesBuilder, SortedEntries } from './sorted-entries.js';
import type { StoreFiles } from './store-files.js';
import type { HeldLock } from './store-lock.js';
import { databaseStamp } from './wal-index.js';
import { removeWal } from './wal-appender.js';
import { WalTail } from './wal-tail.js';

/**
 * A checkpoint folds the WAL into the database file when a write would make the WAL more than
 * `checkpointAt` lines and more lines than the database file has plants: checkpoints come at
 * doubling sizes, so their cost stays O(plants) in all (an import into an empty store writes each
 * plant about twice). Default 100,000 (docs/store.md says why). A database file read whole, no
 * wal-index vouching for it (normalise.ts), is checkpointed at once: written in our layout, with
 * its wal-index, for every reader after it.
 */
export const DEFAULT_CHECKPOINT_AT = 100_000;

/**
 * When the next write checkpoints first. A checkpoint that failed before its rename (a full disk:
 * the database file and the WAL are as they were, and the write appended instead) is not tried
 * again until the WAL has grown by another threshold: each write would otherwise rewrite the whole
 * database file to fail again. A checkpoint that succeeds clears that; another WAL (another
 * process checkpointed) leaves it without effect.
 */
export class CheckpointPolicy {
  private postponed: { wal: bigint | undefined; untilLines: number } | undefined;

  constructor(private readonly checkpointAt: number) {}

  /** Whether a write of `adding` lines onto `snapshot` checkpoints first. */
  due(snapshot: Snapshot, adding: number): boolean {
    const { postponed } = this;
    const past = snapshot.database.readWhole ? 0 : this.threshold(snapshot);
    const samePostponed = postponed !== undefined && postponed.wal === snapshot.wal.file.id;
    const until = samePostponed ? Math.max(past, postponed.untilLines) : past;
    return snapshot.wal.lines + adding > until;
  }

  failed(snapshot: Snapshot): void {
    this.postponed = { wal: snapshot.wal.file.id, untilLines: snapshot.wal.lines + this.threshold(snapshot) };
  }

  done(): void {
    this.postponed = undefined;
  }

  private threshold(snapshot: Snapshot): number {
    return Math.max(this.checkpointAt, snapshot.database.reader.plants);
  }
}

/**
 * Checkpoints `snapshot`: its WAL folded into a new database file, and the snapshot that follows
 * returned: the new file, its wal-index, and no WAL. A checkpoint is an optimisation: one that fails
 * before its rename (ENOSPC, EIO) changed nothing, so it returns the snapshot as it was, for the
 * write to append to, and is not tried again for a while (CheckpointPolicy). One that fails after
 * it fails the write, with effect none: the new file holds only plants already acknowledged, and
 * the write's own lines were never appended. The WAL stays then: should a crash bring the old
 * database file back, it makes that one whole; over the new one, it changes nothing.
 */
export function checkpoint(files: StoreFiles, snapshot: Snapshot, lease: HeldLock, policy: CheckpointPolicy): Snapshot {
  // A checkpoint cut short by a crash left its temporary file, as large as the store: it goes
  // before this one needs the room again; so does a wal-index's. Under the lease, no other process
  // checkpoints; a reader writing a wal-index meanwhile (without the lock) loses only that cache.
  // At a checkpoint only, which costs O(store) anyway: the directory is read whole.
  lease.confirm();
  removeTempFiles([files.path, files.walIndexPath], files.fs);
  let entries;
  try {
    entries = writeDatabase(files.fs, files.path, snapshot, lease);
  } catch (error) {
    if (error instanceof RenamedNotDurable) throw storeIoError(files.path, 'fsync the directory of', error.cause);
    // A database file or WAL that could not be read says so itself; a bug fails the write as before.
    if (isPlantsError(error)) throw error;
    const errno = error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
    if (!errno) throw storeIoError(files.path, 'write', error);
    policy.failed(snapshot);
    return snapshot;
  }
  policy.done();
  // Another holder may have appended to the WAL, which the new file does not hold: confirmed before it goes.
  return afterCheckpoint(files, snapshot, entries, () => lease.confirm());
}

/**
 * The snapshot after a checkpoint of `before` renamed its new database file, of `entries`' plants,
 * into place: that file, opened before the WAL it holds is removed (a failure to open it leaves the
 * WAL), and no WAL; and its wal-index, whatever its size: every reader after it finds the file in
 * our layout by it. `beforeRemove` may throw to keep the WAL: the lease was lost.
 */
function afterCheckpoint(
  files: StoreFiles,
  before: Snapshot,
  entries: SortedEntries,
  beforeRemove: () => void,
): Snapshot {
  files.forget(before);
  const { fs, path } = files;
  let fd: number | undefined;
  let info;
  try {
    fd = fs.openSync(path, 'r');
    info = fs.fstatSync(fd, { bigint: true });
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    throw storeIoError(path, 'reopen after writing', error);
  }
  const reader = new DatabaseReader(fileBytes(fs, fd, Number(info.size)), path, entries.size, entries);
  try {
    beforeRemove();
    removeWal(files.walPath, fs);
  } catch (error) {
    reader.close();
    throw error;
  }
  const database = { path, stamp: databaseStamp(info), reader, vouched: false, readWhole: false };
  const wal = { file: { id: undefined, size: 0 }, wholeBytes: 0, lines: 0, indexedBytes: 0, indexedLines: 0 };
  return files.writeIndex(new Snapshot(database, SortedEntries.EMPTY, WalTail.empty(), wal, files.walReader));
}

/**
 * A checkpoint confirms its lock, which renews it, each time it has written about this much: it
 * writes synchronously, so the lock's refresh timer cannot run meanwhile, and the checkpoint of a
 * store of millions of plants on a slow disk may outlast the lock's staleness; a waiter would then
 * take it over, and append to the WAL the checkpoint removes. Often enough that only a disk writing
 * less than this in a refresh interval lets the lock look stale; seldom enough to cost nothing
 * beside the writes.
 */
const RENEW_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Writes the plants of `snapshot` into a new database file at `path`, in id order (the database
 * file's lines, the WAL's where it has one, none where it deleted one), and renames it over the old
 * one: written in full beside it, fsynced and checked first (durable-file.ts), the lease confirmed
 * right before the rename. Returns each plant's id with where its line starts in the new file.
 * Throws as replaceFileSync does: before the rename, the database file is as it was.
 */
function writeDatabase(fs: FileSystem, path: string, snapshot: Snapshot, lease: HeldLock): SortedEntries {
  const entries = new EntriesBuilder();
  let unrenewed = 0;
  replaceFileSync(
    path,
    (write) => {
      const writer = new DatabaseWriter(
        (chunk) => {
          write(chunk);
          unrenewed += chunk.length;
          if (unrenewed >= RENEW_EVERY_BYTES) {
            unrenewed = 0;
            lease.confirm();
          }
        },
        (id, start) => entries.push(id, start),
      );
      snapshot.writeTo(writer);
      writer.end();
    },
    { fs, beforeRename: () => lease.confirm() },
  );
  return entries.build();
}
