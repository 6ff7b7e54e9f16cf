import type { IncomingMessage } from 'node:http';
import { addPlant, toPlant } from '../core/create.js';
import { encodePlant } from '../core/plant-json.js';
import { deletePlant, getPlant } from '../core/read-delete.js';
import type { PlantStore } from '../core/store.js';
import { newPlantOfBody, readRequestBody } from './body.js';
import { rejection } from './failures.js';
import { listQuery, plantId } from './parameters.js';
import { sendJson, sendJsonText, sendNoContent, type AnswerOptions } from './respond.js';
import { RouteTable } from './routes.js';

/** What every route of the service is handed: the store, the body limit, how to end an answer. */
export interface PlantContext {
  store: PlantStore;
  maxBodyBytes: number;
  /** Options of an answer: it closes its connection once the server is stopping. */
  answer(): AnswerOptions;
}

export function tooLarge(maxBodyBytes: number) {
  return rejection(413, 'payload_too_large', `the request body is over the limit of ${maxBodyBytes} bytes`);
}

/** A request whose body means nothing (GET, DELETE): read and dropped, as a refusal's is. */
async function skipBody(req: IncomingMessage, maxBodyBytes: number): Promise<void> {
  if (!(await readRequestBody(req, maxBodyBytes, false)).complete) throw tooLarge(maxBodyBytes);
}

/**
 * The service: the contract's `POST /plants`, and the extensions that follow the public Plant
 * Store API (GET /plants, GET and DELETE /plants/{id}).
 */
export const PLANT_ROUTES = new RouteTable<PlantContext>('the service', [
  {
    method: 'POST',
    path: '/plants',
    async handle(req, res, _params, { store, maxBodyBytes, answer }) {
      const read = await readRequestBody(req, maxBodyBytes);
      if (!read.complete) throw tooLarge(maxBodyBytes);
      const plant = await addPlant(store, newPlantOfBody(read.bytes));
      sendJson(res, 200, toPlant(plant), {}, answer());
    },
  },
  {
    method: 'GET',
    path: '/plants',
    async handle(req, res, _params, { store, maxBodyBytes, answer }) {
      const query = listQuery(req.url ?? '');
      await skipBody(req, maxBodyBytes);
      const page = await store.list(query);
      // Plants with their ids, which JSON.stringify cannot write exactly: each as its canonical line.
      sendJsonText(res, 200, `[${page.map(encodePlant).join(',')}]`, answer());
    },
  },
  {
    method: 'GET',
    path: '/plants/{id}',
    async handle(req, res, params, { store, maxBodyBytes, answer }) {
      const id = plantId(params.id);
      await skipBody(req, maxBodyBytes);
      sendJsonText(res, 200, encodePlant(await getPlant(store, id)), answer());
    },
  },
  {
    method: 'DELETE',
    path: '/plants/{id}',
    async handle(req, res, params, { store, maxBodyBytes, answer }) {
      const id = plantId(params.id);
      await skipBody(req, maxBodyBytes);
      await deletePlant(store, id);
      sendNoContent(res, answer());
    },
  },
]);
