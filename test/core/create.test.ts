import { describe, expect, it } from 'vitest';
import { createPlant, toPlant } from '../../src/core/create.js';
import { PlantsError } from '../../src/core/errors.js';
import { MemoryStore } from '../helpers/memory-store.js';

describe('createPlant', () => {
  it('stores a valid plant and returns it with its id', async () => {
    const store = new MemoryStore();
    const plant = await createPlant(store, { id: 9223372036854775807n, name: 'Fern', tag: 'herb', extra: true });
    expect(plant).toEqual({ id: 9223372036854775807n, name: 'Fern', tag: 'herb' });
    expect([...store.plants.values()]).toEqual([plant]);
    expect(toPlant(plant)).toEqual({ name: 'Fern', tag: 'herb' });
  });

  it('refuses a duplicate id with duplicate_id (error 1002) and keeps the first plant', async () => {
    const store = new MemoryStore();
    await createPlant(store, { id: 1n, name: 'Fern' });
    const failure = await createPlant(store, { id: 1n, name: 'Oak' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlantsError);
    expect(failure).toMatchObject({ code: 'duplicate_id', error: 1002, message: 'a plant with id 1 already exists' });
    expect(store.plants.get(1n)?.name).toBe('Fern');
  });

  it('refuses an invalid plant with invalid_plant (error 1001) and stores nothing', async () => {
    const store = new MemoryStore();
    await expect(createPlant(store, { id: 1.5, name: '' })).rejects.toMatchObject({
      code: 'invalid_plant',
      error: 1001,
    });
    expect(store.plants.size).toBe(0);
  });
});
