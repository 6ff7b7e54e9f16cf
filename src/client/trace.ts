import { printable, printableMessage } from '../core/printable.js';
import type { PlantsClientOptions } from './client-options.js';
import { requestHeaders } from './request-settings.js';
import type { Method, RawAnswer, Transport } from './transport.js';

/** How much of a body a trace shows: enough to read a page's start, never a whole import. */
const BODY_SHOWN = 2_000;

/**
 * A transport that writes each request and its answer to `write` (stderr) as it goes, as gh does
 * for GH_DEBUG=api: method, URL, headers (the token masked), body; then the status, the time it
 * took, the headers read and the body, each body cut at BODY_SHOWN characters and shown escaped
 * (a service's answer may hold anything, terminal escapes too). PLANTS_DEBUG=api turns it on;
 * loaded only then.
 */
export function tracedTransport(
  transport: Transport,
  options: PlantsClientOptions,
  write: (text: string) => void,
  now: () => number = performance.now.bind(performance),
): Transport {
  return {
    async request(
      method: Method,
      path: string,
      body?: string,
      headers?: Readonly<Record<string, string>>,
    ): Promise<RawAnswer> {
      const sent = { ...requestHeaders(options, body), ...headers, authorization: 'Bearer ****' };
      write(
        `> ${method} ${printable(`${options.baseUrl}${path}`, Infinity)}\n${headerLines('>', sent)}` +
          `${bodyLines('>', body)}`,
      );
      const started = now();
      try {
        const answer = await transport.request(method, path, body, headers);
        const read = {
          'retry-after': answer.retryAfter,
          location: answer.location,
          etag: answer.etag,
          'plants-outcome': answer.outcome,
        };
        write(
          `< ${answer.status} (${Math.round(now() - started)} ms)\n${headerLines('<', read)}` +
            `${bodyLines('<', answer.text)}`,
        );
        return answer;
      } catch (error) {
        write(
          `< no answer (${Math.round(now() - started)} ms): ${printable((error as Error).message ?? String(error))}\n`,
        );
        throw error;
      }
    },
    close: () => transport.close(),
  };
}

function headerLines(side: string, headers: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(headers)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${side} ${name}: ${printable(value)}\n`)
    .join('');
}

function bodyLines(side: string, body: string | undefined): string {
  if (body === undefined || body === '') return '';
  const more = body.length > BODY_SHOWN ? ` … (${body.length} characters in all)` : '';
  return `${side}\n${printableMessage(body, BODY_SHOWN)}${more}\n`;
}
