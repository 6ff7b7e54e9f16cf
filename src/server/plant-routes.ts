import type { IncomingMessage, ServerResponse } from 'node:http';
import { changePlant, replacePlant } from '../core/change.js';
import { addPlant, toPlant } from '../core/create.js';
import { etagOf } from '../core/etag.js';
import { encodePlant } from '../core/plant-json.js';
import { deletePlant, getPlant } from '../core/read-delete.js';
import type { NewPlant } from '../core/schemas.js';
import type { PlantStore } from '../core/store.js';
import { parsePatch, parsePlantBody } from '../core/validate.js';
import { jsonOfBody, newPlantOfBody, readRequestBody } from './body.js';
import { rejection } from './failures.js';
import { countQuery, listQuery, plantId } from './parameters.js';
import { preconditionOf } from './preconditions.js';
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

/** The body, whole: over the limit, 413, before anything of the request is looked at further. */
async function bodyOf(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  const read = await readRequestBody(req, maxBodyBytes);
  if (!read.complete) throw tooLarge(maxBodyBytes);
  return read.bytes;
}

/** A request whose body means nothing (GET, DELETE): read and dropped, as a refusal's is. */
async function skipBody(req: IncomingMessage, maxBodyBytes: number): Promise<void> {
  if (!(await readRequestBody(req, maxBodyBytes, false)).complete) throw tooLarge(maxBodyBytes);
}

/**
 * A plant, as GET, PUT and PATCH of /plants/{id} answer it: with its id (canonical JSON, ids exact),
 * its ETag, and what the write did, where one was made (Plants-Outcome).
 */
function sendPlant(
  res: ServerResponse,
  status: number,
  plant: NewPlant,
  options: AnswerOptions,
  outcome?: string,
): void {
  sendJsonText(res, status, encodePlant(plant), options, {
    etag: etagOf(plant),
    ...(outcome === undefined ? {} : { 'plants-outcome': outcome }),
  });
}

const JSON_BODY = ['application/json'];

/**
 * The service: the contract's `POST /plants`, and the extensions that follow the public Plant
 * Store API and HTTP (GET /plants; GET, PUT, PATCH and DELETE /plants/{id}), and GET /plants/count
 * (before /plants/{id}, whose id is never `count`: ids are integers). Each route reads the
 * body (or skips it) before anything else of the request: one over the limit is 413, whatever else
 * is wrong with it.
 */
export const PLANT_ROUTES = new RouteTable<PlantContext>('the service', [
  {
    method: 'POST',
    path: '/plants',
    accepts: JSON_BODY,
    async handle(req, res, _params, { store, maxBodyBytes, answer }) {
      const plant = await addPlant(store, newPlantOfBody(await bodyOf(req, maxBodyBytes)));
      sendJson(res, 200, toPlant(plant), {}, answer());
    },
  },
  {
    method: 'GET',
    path: '/plants',
    async handle(req, res, _params, { store, maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      const page = await store.list(listQuery(req.url ?? ''));
      // Plants with their ids, which JSON.stringify cannot write exactly: each as its canonical line.
      sendJsonText(res, 200, `[${page.map(encodePlant).join(',')}]`, answer());
    },
  },
  {
    method: 'GET',
    path: '/plants/count',
    async handle(req, res, _params, { store, maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      sendJson(res, 200, { count: await store.count(countQuery(req.url ?? '')) }, {}, answer());
    },
  },
  {
    method: 'GET',
    path: '/plants/{id}',
    async handle(req, res, params, { store, maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      sendPlant(res, 200, await getPlant(store, plantId(params.id)), answer());
    },
  },
  {
    method: 'PUT',
    path: '/plants/{id}',
    accepts: JSON_BODY,
    async handle(req, res, params, { store, maxBodyBytes, answer }) {
      const body = await bodyOf(req, maxBodyBytes);
      const expect = preconditionOf(req);
      const id = plantId(params.id);
      const plant = parsePlantBody(jsonOfBody(body), id);
      const outcome = await replacePlant(store, expect === undefined ? { plant } : { plant, expect });
      // A creation is 201, as HTTP has it for a PUT (the contract's POST answers 200).
      sendPlant(res, outcome === 'created' ? 201 : 200, plant, answer(), outcome);
    },
  },
  {
    method: 'PATCH',
    path: '/plants/{id}',
    accepts: ['application/merge-patch+json', ...JSON_BODY],
    async handle(req, res, params, { store, maxBodyBytes, answer }) {
      const body = await bodyOf(req, maxBodyBytes);
      const expect = preconditionOf(req);
      const id = plantId(params.id);
      const patch = { id, ...parsePatch(jsonOfBody(body), id), ...(expect === undefined ? {} : { expect }) };
      const { plant, changed } = await changePlant(store, patch);
      sendPlant(res, 200, plant, answer(), changed ? 'updated' : 'unchanged');
    },
  },
  {
    method: 'DELETE',
    path: '/plants/{id}',
    async handle(req, res, params, { store, maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      const expect = preconditionOf(req);
      await deletePlant(store, plantId(params.id), expect);
      sendNoContent(res, answer());
    },
  },
]);
