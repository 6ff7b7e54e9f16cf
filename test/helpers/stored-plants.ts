import { writeFile } from 'node:fs/promises';
import type { NewPlant } from '../../src/core/schemas.js';
import type { PlantStore } from '../../src/core/store.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { FileStore } from '../../src/store/file/file-store.js';

/** Every plant a store holds, in id order, read through its own list, a page at a time. */
export async function allPlants(store: PlantStore): Promise<Map<bigint, NewPlant>> {
  const plants = new Map<bigint, NewPlant>();
  for (
    let page = await store.list({ limit: 1000 });
    page.length > 0;
    page = await store.list({ limit: 1000, after: page.at(-1)!.id })
  ) {
    for (const plant of page) plants.set(plant.id, plant);
  }
  return plants;
}

/** Every plant of the JSON file store at `path` (store file and journal), as a fresh process would read them. */
export async function storedPlants(path: string): Promise<Map<bigint, NewPlant>> {
  const store = await FileStore.open(path);
  try {
    return await allPlants(store);
  } finally {
    await store.close();
  }
}

/**
 * A store file of `plants` as plants leaves one: laid out as a checkpoint writes it, read by a
 * first command, which vouches for it with an index (else the next command would check it whole).
 */
export async function checkpointedStore(path: string, plants: readonly NewPlant[]): Promise<void> {
  await writeFile(path, encodeDatabase(plants));
  await (await FileStore.open(path)).close();
}
