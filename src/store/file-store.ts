import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { PlantsError } from '../core/errors.js';
import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, PlantStore } from '../core/store.js';
import { addTo } from './memory-store.js';
import { decodeStore, encodeStore } from './store-file.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked`. */
  lockWaitMs?: number;
}

/**
 * The JSON file store. Every change is a read-modify-write under a cross-process lock
 * (`<store>.lock`, proper-lockfile), written to a temp file, fsynced and renamed over the store, so
 * readers and killed writers only ever see a whole file.
 */
export class FileStore implements PlantStore {
  private cache: { stamp: string; plants: Map<bigint, NewPlant> } | undefined;

  constructor(
    readonly path: string,
    private readonly options: FileStoreOptions = {},
  ) {}

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.update((existing) => addTo(existing, plants));
  }

  /** Runs `change` on the current plants under the lock; writes them back if it added any. */
  async update(change: (plants: Map<bigint, NewPlant>) => AddOutcome[]): Promise<AddOutcome[]> {
    const lock = await this.lock();
    try {
      const plants = await this.current();
      // Changed in place (no copy: a store can hold millions of plants), so until the write
      // succeeds the cache is not what is on disk.
      this.cache = undefined;
      const outcomes = change(plants);
      // A lock we lost (this process stalled past its staleness) may be held by another writer now.
      if (lock.lost) throw this.lockedError(lock.lost);
      if (outcomes.includes('added')) await this.write(plants);
      this.cache = { stamp: await this.stamp(), plants };
      return outcomes;
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  /** The plants as they are on disk now; an absent file is an empty store. */
  async read(): Promise<Map<bigint, NewPlant>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw this.ioError('read', error);
    }
    return decodeStore(text, this.path);
  }

  /**
   * The plants on disk, re-read only when the file changed since this process last wrote it: a
   * long-running server stays O(batch) per write, yet sees what a `--local` create added.
   */
  private async current(): Promise<Map<bigint, NewPlant>> {
    const stamp = await this.stamp();
    if (this.cache !== undefined && this.cache.stamp === stamp) return this.cache.plants;
    return this.read();
  }

  /** Identifies one version of the file: every write renames a new inode into place. */
  private async stamp(): Promise<string> {
    try {
      const info = await stat(this.path, { bigint: true });
      return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
      throw this.ioError('read', error);
    }
  }

  /** Replaces the file with these plants, durably (protected: tests make it fail). */
  protected async write(plants: Map<bigint, NewPlant>): Promise<void> {
    try {
      await writeFileAtomic(this.path, encodeStore(plants.values()), { fsync: true });
      // The rename is only durable once the directory entry is on disk too.
      const directory = await open(dirname(this.path), 'r');
      try {
        await directory.sync();
      } finally {
        await directory.close();
      }
    } catch (error) {
      throw this.ioError('write', error);
    }
  }

  private async lock(): Promise<{ release: () => Promise<void>; lost?: Error }> {
    try {
      await mkdir(dirname(this.path), { recursive: true });
    } catch (error) {
      throw this.ioError('create the directory of', error);
    }
    const waitMs = this.options.lockWaitMs ?? 30_000;
    const held: { release: () => Promise<void>; lost?: Error } = { release: async () => undefined };
    try {
      held.release = await lockfile.lock(this.path, {
        realpath: false,
        // About waitMs of short, jittered waits (~150 ms each once backed off): locks are held briefly.
        retries: { retries: Math.ceil(waitMs / 150), minTimeout: 5, maxTimeout: 100, factor: 1.3, randomize: true },
        onCompromised: (error) => {
          held.lost = error;
        },
      });
      return held;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw this.lockedError(error);
      throw this.ioError('lock', error);
    }
  }

  private lockedError(cause: unknown): PlantsError {
    return new PlantsError('store_locked', `the store ${this.path} is in use by another process`, {
      hint: `try again; if no plants process is running, remove ${this.path}.lock`,
      cause,
    });
  }

  private ioError(action: string, error: unknown): PlantsError {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return new PlantsError('store_io', `could not ${action} the store ${this.path} (${reason})`, { cause: error });
  }
}
