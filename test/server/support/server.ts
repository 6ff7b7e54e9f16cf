import { Agent, request, type Dispatcher } from 'undici';
import { createPlantServer, type PlantServerOptions } from '../../../src/server/app.js';
import { listen, stopServer } from '../../../src/server/lifecycle.js';
import type { PlantStore } from '../../../src/core/store.js';
import { expectDocumentedAnswer, type Answer } from './openapi.js';

export const TOKEN = 'test-token-1';
export const OTHER_TOKEN = 'test-token-2';

export interface RunningServer {
  url: string;
  port: number;
  lines: string[];
  errors: unknown[];
  /** Sends a request and returns the answer as text; every answer is checked against openapi.json. */
  send(options?: SendOptions): Promise<Answer>;
  /** Closes the test's connections and stops the server; safe to call twice. */
  stop(): Promise<void>;
}

export interface SendOptions {
  method?: Dispatcher.HttpMethod;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sends no Authorization header at all. */
  anonymous?: boolean;
  dispatcher?: Dispatcher;
}

/** A real server on 127.0.0.1, port 0, with the given store, logging into `lines`. */
export async function startServer(
  store: PlantStore,
  options: Partial<PlantServerOptions> = {},
): Promise<RunningServer> {
  const lines: string[] = [];
  const errors: unknown[] = [];
  const server = createPlantServer({
    store,
    tokens: [TOKEN, OTHER_TOKEN],
    log: (line) => lines.push(line),
    onUnexpectedError: (error) => errors.push(error),
    ...options,
  });
  const { url, port } = await listen(server, 0, '127.0.0.1');
  const agent = new Agent({ connections: 8 });
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    lines,
    errors,
    async send(send = {}) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(send.anonymous ? {} : { authorization: `Bearer ${TOKEN}` }),
        ...send.headers,
      };
      const method = send.method ?? 'POST';
      const path = send.path ?? '/plants';
      const response = await request(`${url}${path}`, {
        method,
        headers,
        body: send.body ?? null,
        dispatcher: send.dispatcher ?? agent,
      });
      const answer = { status: response.statusCode, headers: response.headers, body: await response.body.text() };
      expectDocumentedAnswer(answer, { method, path });
      return answer;
    },
    stop() {
      stopped ??= agent.close().then(() => stopServer(server, { graceMs: 2_000 }));
      return stopped;
    },
  };
}
