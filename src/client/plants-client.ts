import { encodePlant } from '../core/plant-json.js';
import { PlantsError } from '../core/errors.js';
import type { PlantFilter } from '../core/store.js';
import {
  readCountAnswer,
  readCreateAnswer,
  readDeleteAnswer,
  readPageAnswer,
  readPatchAnswer,
  readPlantAnswer,
  readPutAnswer,
  readTokenCheckAnswer,
} from './answer.js';
import { transportError, unansweredMeaning } from './unanswered.js';
import { checkPage } from './page-check.js';
import { patchBody, preconditionHeaders } from './preconditions.js';
import type { PlantsClient, PlantsClientOptions } from './client-options.js';
import { proxyFor } from './proxy-route.js';
import { FIRST_CONNECTION_MS, isRetryableFailure, isRetryableStatus, NO_RETRY, retryDelayMs } from './retry.js';
import { TransportError, type Method, type RawAnswer, type Transport } from './transport.js';

/**
 * The client for these options. Requests go through node:http, straight to the service or
 * through a proxy's tunnels, as the environment decides for the service's host (proxy-route.ts).
 */
export async function createPlantsClient(options: PlantsClientOptions): Promise<PlantsClient> {
  const transport = await createTransport(options);
  const { trace } = options;
  return clientOver(
    trace === undefined ? transport : (await import('./trace.js')).tracedTransport(transport, options, trace),
    options,
  );
}

/** The transport for these options: the same contract (transport.ts) on either route. */
export async function createTransport(options: PlantsClientOptions): Promise<Transport> {
  const { createHttpTransport } = await import('./http-client.js');
  return await createHttpTransport(options, proxyFor(new URL(options.baseUrl), options.env));
}

/** The operations on a transport, each request sent again only where it cannot have been processed. */
function clientOver(transport: Transport, options: PlantsClientOptions): PlantsClient {
  const retry = options.retry ?? NO_RETRY;
  // Whether the service has answered this client once: see FIRST_CONNECTION_MS.
  let answered = false;
  const started = Date.now();
  const stopped = () => options.stop?.aborted === true;
  // `unanswered`: what a request sent but never answered may have done (answer.ts words it for each method).
  const send = async (
    method: Method,
    path: string,
    body?: string,
    headers?: Readonly<Record<string, string>>,
    unanswered = unansweredMeaning(method),
  ): Promise<RawAnswer> => {
    for (let attempt = 1; ; attempt += 1) {
      const lastTry = attempt >= retry.tries;
      let answer: RawAnswer;
      if (stopped()) throw new PlantsError('interrupted', `stopped before sending ${method} ${path}`);
      try {
        answer = await transport.request(method, path, body, headers);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        const delay = retryDelayMs(retry, attempt, undefined);
        const tooSoon = !answered && Date.now() + delay - started > FIRST_CONNECTION_MS;
        if (stopped() || lastTry || !isRetryableFailure(error) || tooSoon) {
          const { baseUrl, timeoutSeconds, connections = 1 } = options;
          const url = `${baseUrl}${path}`;
          throw transportError(error, { method, path, url, timeoutSeconds, unanswered, connections });
        }
        await sleep(delay, options.stop);
        continue;
      }
      answered = true;
      if (lastTry || !isRetryableStatus(answer.status)) return answer;
      await sleep(retryDelayMs(retry, attempt, answer.retryAfter), options.stop);
    }
  };
  return {
    createPlant: async (plant) => readCreateAnswer(await send('POST', '/plants', encodePlant(plant))),
    getPlant: async (id) => readPlantAnswer(await send('GET', `/plants/${id}`), id),
    listPlants: async (asked) => {
      const { after, limit, search } = asked;
      const query = new URLSearchParams({ limit: String(limit) });
      if (after !== undefined) query.set('after', String(after));
      for (const [key, value] of filterQuery(asked)) query.set(key, value);
      const request = `/plants?${query}`;
      const named = search === undefined ? undefined : (await import('../core/name-search.js')).nameMatcher(search);
      return [...checkPage(readPageAnswer(await send('GET', request)), asked, request, named)];
    },
    countPlants: async (filter) => {
      const query = filterQuery(filter).toString();
      return readCountAnswer(await send('GET', `/plants/count${query === '' ? '' : `?${query}`}`));
    },
    putPlant: async ({ plant, expect }) => {
      const { name, tag } = plant;
      return readPutAnswer(
        await send(
          'PUT',
          `/plants/${plant.id}`,
          JSON.stringify(tag === undefined ? { name } : { name, tag }),
          preconditionHeaders(expect),
        ),
      );
    },
    patchPlant: async (patch) =>
      readPatchAnswer(
        await send('PATCH', `/plants/${patch.id}`, patchBody(patch), {
          'content-type': 'application/merge-patch+json',
          ...preconditionHeaders(patch.expect),
        }),
        patch.id,
      ),
    deletePlant: async (id, expect) =>
      readDeleteAnswer(await send('DELETE', `/plants/${id}`, undefined, preconditionHeaders(expect))),
    // A POST of {} creates nothing, with any token: unanswered, the token was only not checked.
    checkToken: async () =>
      readTokenCheckAnswer(await send('POST', '/plants', '{}', undefined, 'the token was not checked')),
    close: () => transport.close(),
  };
}

/** The query parameters of a filter: `tag`, `search`. */
function filterQuery({ tag, search }: PlantFilter): URLSearchParams {
  const query = new URLSearchParams();
  if (tag !== undefined) query.set('tag', tag);
  if (search !== undefined) query.set('search', search);
  return query;
}

/**
 * The wait before a try again; a stop ends it early (the next try then sees the stop and sends
 * nothing): a Retry-After of a minute must not hold a second Ctrl-C for as long.
 */
function sleep(ms: number, stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop?.addEventListener('abort', done, { once: true });
  });
}
