import { isPlantsError } from '../../core/errors.js';
import { removeTempFiles, RenamedNotDurable, replaceFileSync } from '../../fs/durable-file.js';
import type { FileSystem } from '../../fs/file-system.js';
import type { Snapshot } from './snapshot.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';
import { storeIoError } from '../store-errors.js';
import type { StoreFiles } from './store-files.js';
import type { HeldLock } from './store-lock.js';
import { StoreFileWriter } from './database-file.js';

/**
 * The journal is folded into the store file when a write would make it more than `foldAt` lines
 * and more lines than the store file has plants: folds come at doubling sizes, so their cost stays
 * O(plants) in all (an import into an empty store writes each plant about twice). Default 100,000
 * (docs/store.md says why). A store file read whole, no index vouching for it (normalise.ts), is
 * folded at once: written in our layout, with its index, for every reader after it.
 */
export const DEFAULT_FOLD_AT = 100_000;

/**
 * When the next write folds first. A fold that failed before its rename (a full disk: the store
 * file and the journal are as they were, and the write appended instead) is not tried again until
 * the journal has grown by another threshold: each write would otherwise rewrite the whole store
 * file to fail again. A fold that succeeds clears that; another journal (another process folded)
 * leaves it without effect.
 */
export class FoldPolicy {
  private postponed: { journal: bigint | undefined; untilLines: number } | undefined;

  constructor(private readonly foldAt: number) {}

  /** Whether a write of `adding` lines onto `snapshot` folds first. */
  due(snapshot: Snapshot, adding: number): boolean {
    const { postponed } = this;
    const past = snapshot.store.readWhole ? 0 : this.threshold(snapshot);
    const until = postponed !== undefined && postponed.journal === snapshot.journal.file.id ? Math.max(past, postponed.untilLines) : past;
    return snapshot.journal.lines + adding > until;
  }

  failed(snapshot: Snapshot): void {
    this.postponed = { journal: snapshot.journal.file.id, untilLines: snapshot.journal.lines + this.threshold(snapshot) };
  }

  done(): void {
    this.postponed = undefined;
  }

  private threshold(snapshot: Snapshot): number {
    return Math.max(this.foldAt, snapshot.store.view.plants);
  }
}

/**
 * Folds the journal of `snapshot` into a new store file, and returns the snapshot that follows: the
 * new file, and no journal. A fold is an optimisation: one that fails before its rename (ENOSPC,
 * EIO) changed nothing, so it returns the snapshot as it was, for the write to append to, and is
 * not tried again for a while (FoldPolicy). One that fails after it fails the write, with effect
 * none: the new file holds only plants already acknowledged, and the write's own lines were never
 * appended. The journal stays then: should a crash bring the old store file back, it makes that
 * one whole; over the new one, it changes nothing.
 */
export function foldJournal(files: StoreFiles, snapshot: Snapshot, lease: HeldLock, policy: FoldPolicy): Snapshot {
  // A fold cut short by a crash left its temporary file, as large as the store: it goes before
  // this fold needs the room again; so does an index's. Under the lease, no other process folds;
  // a reader writing an index meanwhile (without the lock) loses only that cache. At a fold only,
  // which costs O(store) anyway: the directory is read whole.
  lease.confirm();
  removeTempFiles([files.path, files.indexPath], files.fs);
  let entries;
  try {
    entries = writeFold(files.fs, files.path, snapshot, lease);
  } catch (error) {
    if (error instanceof RenamedNotDurable) throw storeIoError(files.path, 'fsync the directory of', error.cause);
    // A store file or journal that could not be read says so itself; a bug fails the write as before.
    if (isPlantsError(error)) throw error;
    if (!(error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string')) throw storeIoError(files.path, 'write', error);
    policy.failed(snapshot);
    return snapshot;
  }
  policy.done();
  // Another holder may have appended to the journal, which the new file does not hold: confirmed before it goes.
  return files.afterFold(snapshot, entries, () => lease.confirm());
}

/**
 * A fold confirms its lock, which renews it, each time it has written about this much: it writes
 * synchronously, so the lock's refresh timer cannot run meanwhile, and the fold of a store of
 * millions of plants on a slow disk may outlast the lock's staleness; a waiter would then take it
 * over, and append to the journal the fold removes. Often enough that only a disk writing less
 * than this in a refresh interval lets the lock look stale; seldom enough to cost nothing beside
 * the writes.
 */
const RENEW_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Writes the plants of `snapshot` into a new store file at `path`, in id order (the store file's
 * lines, the journal's where it has one, none where it deleted one), and renames it over the old
 * one: written in full beside it, fsynced and checked first (durable-file.ts), the lease confirmed
 * right before the rename. Returns each plant's id with where its line starts in the new file.
 * Throws as replaceFileSync does: before the rename, the store file is as it was.
 */
function writeFold(fs: FileSystem, path: string, snapshot: Snapshot, lease: HeldLock): SortedEntries {
  const entries = new EntriesBuilder();
  let unrenewed = 0;
  replaceFileSync(
    path,
    (write) => {
      const writer = new StoreFileWriter(
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
