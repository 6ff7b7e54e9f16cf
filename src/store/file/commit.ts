import { walValues, type Decision } from './changes.js';
import { checkpoint, type CheckpointPolicy } from './checkpoint.js';
import type { HeldLock } from './lock-lease.js';
import type { Snapshot } from './snapshot.js';
import type { StoreFiles } from './store-files.js';
import type { WalAppender } from './wal-appender.js';

/**
 * A run of writes that goes on (a server, an import) indexes its WAL tail once it outgrows the
 * wal-index and this many lines, at doubling sizes, so indexing costs it O(1) a line; a reader
 * beside it reads up to that many lines as they are. What it leaves is indexed when it closes.
 */
const INDEX_IN_A_RUN = 100_000;

/** What a write is made with: the store's files, the appender of its WAL, and when to checkpoint. */
export interface Writing {
  files: StoreFiles;
  appender: WalAppender;
  checkpoints: CheckpointPolicy;
}

/**
 * One write under `lease`, on `snapshot`, the store as it is (read under the lock): decided,
 * checkpointed first when due, appended, and once durable, the next snapshot. Each change on disk
 * confirms the lease first. `keep` is given each snapshot as it is made, the last of them the
 * write's: should the write fail, the caller forgets it, and reads the files again.
 */
export async function commit<O>(
  { files, appender, checkpoints }: Writing,
  snapshot: Snapshot,
  lease: HeldLock,
  decide: Decision<O>,
  keep: (snapshot: Snapshot) => void,
): Promise<O[]> {
  const { outcomes, changes } = decide(snapshot);
  const { ids, lines } = changes;
  if (lines.length === 0) return outcomes;
  if (checkpoints.due(snapshot, lines.length)) keep((snapshot = checkpoint(files, snapshot, lease, checkpoints)));
  // The append cuts any torn tail back to the whole lines first: its lines start there.
  const values = walValues(changes, snapshot.wal.wholeBytes);
  // Nothing yields between this look and the append's first change (the cut of a torn tail, or its write).
  lease.confirm();
  const file = await appender.append(lines, snapshot.wal.file, snapshot.wal.wholeBytes);
  const appended = snapshot.appended(snapshot.tail.with(ids, values), file, file.size);
  keep(files.leaveIndex(appended, { tailPast: Math.max(INDEX_IN_A_RUN, snapshot.index.size), unvouched: false }));
  return outcomes;
}
