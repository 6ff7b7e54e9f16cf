import { EnvHttpProxyAgent, request } from 'undici';
import { PlantsError } from '../core/errors.js';
import { stringifyJson } from '../core/json.js';
import type { NewPlant, Plant } from '../core/schemas.js';
import { readAnswer, transportError } from './answer.js';

export interface PlantsClientOptions {
  baseUrl: string;
  token: string;
  timeoutSeconds: number;
  /** HTTP(S)_PROXY and NO_PROXY, upper or lower case, as in the environment. */
  env: Readonly<Record<string, string | undefined>>;
  userAgent: string;
}

export interface PlantsClient {
  /** POSTs the plant once (never retried: a POST may have been processed) and reads the answer. */
  createPlant(plant: NewPlant): Promise<Plant>;
  close(): Promise<void>;
}

/** Answers bigger than this are not a Plant or an Error; stop reading rather than fill memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export function createPlantsClient(options: PlantsClientOptions): PlantsClient {
  const timeoutMs = Math.round(options.timeoutSeconds * 1000);
  const env = options.env;
  // Node's fetch ignores proxy variables; undici's EnvHttpProxyAgent honours them (and NO_PROXY).
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: env.HTTP_PROXY ?? env.http_proxy ?? '',
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy ?? '',
    noProxy: env.NO_PROXY ?? env.no_proxy ?? '',
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const url = `${options.baseUrl}/plants`;

  return {
    async createPlant(plant) {
      let status: number;
      let body: string;
      try {
        const response = await request(url, {
          method: 'POST',
          dispatcher,
          headers: {
            authorization: `Bearer ${options.token}`,
            'content-type': 'application/json',
            accept: 'application/json',
            'user-agent': options.userAgent,
          },
          body: stringifyJson(plant),
        });
        status = response.statusCode;
        body = await readLimited(response.body, status);
      } catch (error) {
        if (error instanceof PlantsError) throw error;
        throw transportError(error, url, options.timeoutSeconds);
      }
      return readAnswer(status, body);
    },
    async close() {
      await dispatcher.close();
    },
  };
}

async function readLimited(stream: AsyncIterable<Buffer> & { destroy(): void }, status: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      stream.destroy();
      throw new PlantsError('bad_response', `the service answered HTTP ${status} with a body over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
