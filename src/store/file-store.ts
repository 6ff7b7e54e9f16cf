import { readFile, stat } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, PlantStore } from '../core/store.js';
import { appendJournal, readJournal, removeJournal } from './journal.js';
import { addTo } from './memory-store.js';
import { storeIoError } from './store-errors.js';
import { decodeStore, encodeStore } from './store-file.js';
import { lockStore, storeLockedError } from './store-lock.js';
import { syncDirectory } from './sync.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /**
   * Append new plants to `<store>.journal` instead of rewriting the store file (a server's many
   * small batches). Without it, every write leaves the whole store in the store file.
   */
  journal?: boolean;
}

/** A journal is folded into the store file once it holds this many plants, and the store at least as many. */
const COMPACT_AT = 10_000;

interface State {
  /** Identifies the files' version on disk: every write renames a new inode or grows the journal. */
  stamp: string;
  plants: Map<bigint, NewPlant>;
  journalPlants: number;
  journalBytes: number;
}

/**
 * The JSON file store. Every change happens under a cross-process lock (store-lock.ts). The store
 * file is only ever replaced whole: written to a temp file, fsynced, renamed, the directory
 * fsynced (write-file-atomic), so readers and killed writers never see a part of one. With the
 * `journal` option, batches are appended to the journal instead (journal.ts).
 */
export class FileStore implements PlantStore {
  private cache: State | undefined;
  readonly journalPath: string;

  constructor(
    readonly path: string,
    private readonly options: FileStoreOptions = {},
  ) {
    this.journalPath = `${path}.journal`;
  }

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.locked(async (state) => {
      const outcomes = addTo(state.plants, plants);
      const added = plants.filter((_, i) => outcomes[i] === 'added');
      if (added.length === 0) return outcomes;
      const journalPlants = state.journalPlants + added.length;
      if (this.options.journal === true && (journalPlants < COMPACT_AT || journalPlants < state.plants.size / 2)) {
        state.journalBytes = await appendJournal(this.journalPath, added, state.journalBytes);
        state.journalPlants = journalPlants;
      } else {
        await this.rewrite(state);
      }
      return outcomes;
    });
  }

  /** Folds the journal into the store file, so that the store file alone holds every plant. */
  async compact(): Promise<void> {
    await this.locked(async (state) => {
      if (state.journalPlants > 0 || state.journalBytes > 0) await this.rewrite(state);
    });
  }

  /** Every plant on disk now (store file and journal), read without the lock. */
  async read(): Promise<Map<bigint, NewPlant>> {
    return (await this.load()).plants;
  }

  /**
   * Runs `work` on the current state under the lock. The state is kept for the next call, and
   * re-read only if another process changed the files meanwhile: a long-running server stays
   * O(batch) per write, yet sees what a `--local` create added.
   */
  private async locked<T>(work: (state: State) => Promise<T>): Promise<T> {
    const lock = await lockStore(this.path, this.options.lockWaitMs ?? 30_000);
    try {
      const stamp = await this.stamp();
      const state = this.cache?.stamp === stamp ? this.cache : await this.load();
      // `work` changes the state in place (no copy: a store can hold millions of plants), so
      // until it has written, the cache is not what is on disk.
      this.cache = undefined;
      // A lock we lost (this process stalled past its staleness) may be another writer's now.
      if (lock.lost) throw storeLockedError(this.path, lock.lost);
      const result = await work(state);
      this.cache = { ...state, stamp: await this.stamp() };
      return result;
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  private async load(): Promise<State> {
    const stamp = await this.stamp();
    let text: string | undefined;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(this.path, 'read', error);
    }
    const plants = text === undefined ? new Map<bigint, NewPlant>() : decodeStore(text, this.path);
    const journal = await readJournal(this.journalPath);
    // Ids the store file holds already were folded into it by a compaction the journal outlived.
    addTo(plants, journal.plants);
    return { stamp, plants, journalPlants: journal.plants.length, journalBytes: journal.wholeBytes };
  }

  /** Replaces the store file with every plant, durably, then drops the journal. */
  private async rewrite(state: State): Promise<void> {
    await this.write(state.plants);
    if (state.journalBytes > 0) await removeJournal(this.journalPath);
    state.journalPlants = 0;
    state.journalBytes = 0;
  }

  /** Replaces the store file durably (protected: tests make it fail). */
  protected async write(plants: Map<bigint, NewPlant>): Promise<void> {
    try {
      await writeFileAtomic(this.path, encodeStore(plants.values()), { fsync: true });
      // The rename is only durable once the directory entry is on disk too.
      await syncDirectory(this.path);
    } catch (error) {
      throw storeIoError(this.path, 'write', error);
    }
  }

  private async stamp(): Promise<string> {
    const [store, journal] = await Promise.all([fileStamp(this.path), fileStamp(this.journalPath)]);
    return `${store}|${journal}`;
  }
}

async function fileStamp(path: string): Promise<string> {
  try {
    const info = await stat(path, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw storeIoError(path, 'read', error);
  }
}
