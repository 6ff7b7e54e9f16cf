import type { PlantStore } from '../core/store.js';
import type { FileSystem } from '../fs/file-system.js';
import { FileStore } from './file/file-store.js';

/** Which store to open: the JSON file store at a path, or the PostgreSQL store at a URL. */
export type StoreLocation = (
  | {
      kind: 'file';
      path: string;
      /** Opened to write (a server): a store made read-only is refused as it opens (FileStore's option). */
      writing?: boolean;
    }
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** Told what the log should say of the store as it opens (PostgresStoreOptions). */
      onNote?: (note: string) => void;
    }
) & {
  /** The most a call waits on the store (another process's lock, the database): plants serve's --store-wait. */
  waitMs?: number;
  /**
   * Aborted: the file store waits for no lock and begins no write any more (a second Ctrl-C of an import); the write
   * under way is finished.
   */
  stop?: AbortSignal;
};

export interface OpenStoreOptions {
  /** The file store calls it when a write has waited a second for another process's lock. */
  onLockWait?: (path: string) => void;
  /** What the file store's files are read and written through (default node:fs). */
  fs?: FileSystem;
}

/** The store at `location`, opened and checked; PostgreSQL's code and driver are loaded only for a store there. */
export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<PlantStore> {
  switch (location.kind) {
    case 'file': {
      const { onLockWait, fs } = options;
      return await FileStore.open(location.path, {
        ...(onLockWait === undefined ? {} : { onLockWait: () => onLockWait(location.path) }),
        ...(fs === undefined ? {} : { fs }),
        ...(location.waitMs === undefined ? {} : { lockWaitMs: location.waitMs }),
        ...(location.stop === undefined ? {} : { stop: location.stop }),
        ...(location.writing === undefined ? {} : { writing: location.writing }),
      });
    }
    case 'postgres': {
      const { PostgresStore } = await import('./postgres/postgres-store.js');
      const { poolSize, waitMs, onNote } = location;
      return await PostgresStore.open(location.url, {
        ...(poolSize === undefined ? {} : { poolSize }),
        ...(waitMs === undefined ? {} : { waitMs }),
        ...(onNote === undefined ? {} : { onNote }),
      });
    }
  }
}
