import { readFile, stat } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, PlantStore } from '../core/store.js';
import { appendJournal, journalBytes, readJournal, removeJournal } from './journal.js';
import { encodePlant, plantOfLine } from './plant-lines.js';
import { storeIoError } from './store-errors.js';
import { appendToStoreFile, decodeStoreLines, encodeStoreLines } from './store-file.js';
import { lockStore, storeLockedError } from './store-lock.js';
import { syncDirectory } from './sync.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /**
   * Append new plants to `<store>.journal` instead of rewriting the store file (a server's many
   * small batches, an import's many large ones). Without it, every write leaves the whole store
   * in the store file.
   */
  journal?: boolean;
}

/** A journal is folded into the store file once it holds this many plants, and at least half the store. */
const COMPACT_AT = 10_000;

/**
 * What a FileStore keeps between writes: the ids only (a million plants cost ~60 MB, not ~250),
 * since the plants themselves are on disk and only a rewrite needs them.
 */
interface State {
  /** Identifies the files' version on disk: every write renames a new inode or grows the journal. */
  stamp: string;
  ids: Set<bigint>;
  journalPlants: number;
  journalBytes: number;
  /**
   * The store file is in our layout, and the journal repeats none of its plants: folding is then
   * a matter of bytes (appendToStoreFile). Otherwise it goes plant by plant.
   */
  foldsAsText: boolean;
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
      const added: string[] = [];
      const outcomes = plants.map((plant): AddOutcome => {
        if (state.ids.has(plant.id)) return 'duplicate';
        state.ids.add(plant.id);
        added.push(encodePlant(plant));
        return 'added';
      });
      if (added.length === 0) return outcomes;
      const journalPlants = state.journalPlants + added.length;
      if (this.options.journal === true && (journalPlants < COMPACT_AT || journalPlants < state.ids.size / 2)) {
        state.journalBytes = await appendJournal(this.journalPath, added, state.journalBytes);
        state.journalPlants = journalPlants;
      } else {
        await this.rewrite(state, added);
      }
      return outcomes;
    });
  }

  /** Folds the journal into the store file, so that the store file alone holds every plant. */
  async compact(): Promise<void> {
    await this.locked(async (state) => {
      if (state.journalBytes > 0) await this.rewrite(state, []);
    });
  }

  /** Every plant on disk now (store file and journal), read without the lock. */
  async read(): Promise<Map<bigint, NewPlant>> {
    const plants = new Map<bigint, NewPlant>();
    for (const [id, line] of await this.lines()) plants.set(id, plantOfLine(line));
    return plants;
  }

  /** Reads and checks the store now (throws `store_corrupt` for one that is not ours), and keeps it for the next write. */
  async open(): Promise<void> {
    this.cache = await this.load();
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
      // `work` changes the state in place, so until it has written, the cache is not what is on disk.
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
    const stored = await this.storeFileLines();
    const journal = await readJournal(this.journalPath);
    const ids = new Set(stored.plants.keys());
    let journalRepeats = false;
    for (const { id } of journal.plants) {
      if (ids.has(id)) journalRepeats = true;
      else ids.add(id);
    }
    return { stamp, ids, journalPlants: journal.plants.length, journalBytes: journal.wholeBytes, foldsAsText: stored.ourLayout && !journalRepeats };
  }

  /** Every plant as its line, by id: the store file's, then the journal's it does not repeat. */
  private async lines(): Promise<Map<bigint, string>> {
    const lines = (await this.storeFileLines()).plants;
    for (const { id, line } of (await readJournal(this.journalPath)).plants) {
      // An id the store file holds already was folded into it by a compaction the journal outlived.
      if (!lines.has(id)) lines.set(id, line);
    }
    return lines;
  }

  private async storeFileLines(): Promise<{ plants: Map<bigint, string>; ourLayout: boolean }> {
    const text = await this.storeFileText();
    return text === undefined ? { plants: new Map(), ourLayout: true } : decodeStoreLines(text, this.path);
  }

  private async storeFileText(): Promise<string | undefined> {
    return (await this.storeFileBytes())?.toString('utf8');
  }

  private async storeFileBytes(): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw storeIoError(this.path, 'read', error);
    }
  }

  /**
   * Replaces the store file with every plant on disk plus `added`, durably, then drops the journal.
   * The files are as `state` found them (the lock is held), so in the usual case the new store is
   * the old text with the journal's lines and the new ones appended: no plant is parsed again.
   */
  private async rewrite(state: State, added: readonly string[]): Promise<void> {
    let file: Buffer | string;
    if (state.foldsAsText) {
      const journal = await journalBytes(this.journalPath, state.journalBytes);
      const lines = added.length === 0 ? journal : Buffer.concat([journal, Buffer.from(`${added.join('\n')}\n`)]);
      file = appendToStoreFile(await this.storeFileBytes(), lines);
    } else {
      file = encodeStoreLines([...(await this.lines()).values(), ...added]);
    }
    await this.write(file);
    if (state.journalBytes > 0) await removeJournal(this.journalPath);
    state.journalPlants = 0;
    state.journalBytes = 0;
    state.foldsAsText = true;
  }

  /** Replaces the store file durably (protected: tests make it fail). */
  protected async write(file: Buffer | string): Promise<void> {
    try {
      await writeFileAtomic(this.path, file, { fsync: true });
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
