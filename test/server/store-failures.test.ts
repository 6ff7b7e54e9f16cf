import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { describe, expect, it } from 'vitest';
import { ERROR_NUMBERS, PlantsError } from '../../src/core/errors.js';
import type { PlantStore } from '../../src/core/store.js';
import { createPlantServer } from '../../src/server/app.js';
import { listen, stopServer } from '../../src/server/lifecycle.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { startServer, TOKEN } from './support/server.js';
import { storeWith } from '../helpers/stores.js';

const PLANT = '{"id": 1, "name": "Fern"}';

function failingStore(error: unknown): PlantStore {
  return storeWith({ addAll: () => Promise.reject(error) });
}

describe('when the store fails, the client gets an Error body: 503 if nothing was stored, else 500', () => {
  it.each([
    ['store_io', new PlantsError('store_io', 'could not write the store /secret/path/plants.json (EIO)')],
    [
      'store_locked',
      new PlantsError('store_locked', 'the store /secret/path/plants.json is in use by another process'),
    ],
    ['store_corrupt', new PlantsError('store_corrupt', '/secret/path/plants.json is not a usable plants store')],
  ])('answers 503 unavailable for %s, without the store path, and reports the cause', async (_code, error) => {
    const server = await startServer(failingStore(error));
    try {
      const answer = await server.send({ body: PLANT });
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      const body = JSON.parse(answer.body) as { error: number; message: string };
      expect(body.error).toBe(ERROR_NUMBERS.unavailable);
      expect(body.message).not.toContain('/secret/path');
      expect(server.errors).toEqual([error]);
    } finally {
      await server.stop();
    }
  });

  it.each([
    ['a TypeError', new TypeError('boom')],
    ['a PlantsError of another kind', new PlantsError('internal', 'unexpected')],
    ['a thrown string', 'not even an Error'],
    [
      'a store failure after the store was written',
      new PlantsError('store_io', 'could not fsync the directory of the store /secret/path (EIO)', {
        effect: 'unknown',
      }),
    ],
  ])('answers 500, the plant may or may not be stored, for %s and reports it', async (_what, error) => {
    // Not 503: a client may send again after a 503, as if nothing had been stored.
    const server = await startServer(failingStore(error));
    try {
      const answer = await server.send({ body: PLANT });
      expect(answer.status).toBe(500);
      expect(answer.headers['retry-after']).toBeUndefined();
      expect(JSON.parse(answer.body)).toEqual({
        error: ERROR_NUMBERS.outcome_unknown,
        message: 'internal error: the plant may or may not have been stored',
      });
      expect(server.errors).toEqual([error]);
      // The server goes on serving.
      expect((await server.send({ body: PLANT })).status).toBe(500);
    } finally {
      await server.stop();
    }
  });

  it('logs an unexpected failure as a line of the request log when no error callback is given', async () => {
    const lines: string[] = [];
    const server = createPlantServer({
      store: failingStore(new TypeError('kaboom')),
      tokens: [TOKEN],
      log: (line) => lines.push(line),
    });
    const { url } = await listen(server, 0, '127.0.0.1');
    try {
      const response = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: PLANT,
      });
      expect(response.status).toBe(500);
      await response.text();
      expect(lines.some((line) => /internal error: TypeError: kaboom/.test(line))).toBe(true);
      expect(lines.some((line) => / POST \/plants 500 \d+ms request-id=[\w-]+$/.test(line))).toBe(true);
    } finally {
      await stopServer(server);
    }
  });

  it('answers 503 for a store file another process replaced with one not ours, and leaves it untouched', async () => {
    const path = join(await tempDir(), 'plants.json');
    const store = await FileStore.open(path);
    await writeFile(path, '{"something": "else"}');
    const server = await startServer(store);
    try {
      const answer = await server.send({ body: PLANT });
      expect(answer.status).toBe(503);
      expect(server.errors).toHaveLength(1);
      expect((server.errors[0] as PlantsError).code).toBe('store_corrupt');
    } finally {
      await server.stop();
    }
  });
});
