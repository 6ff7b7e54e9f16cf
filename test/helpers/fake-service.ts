import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (to test time-outs). */
  delayMs?: number;
  /** Close the connection instead of answering: the request was received, its answer lost. */
  drop?: boolean;
}

export interface FakeService {
  url: string;
  requests: RecordedRequest[];
  answer(answer: Answer | ((request: RecordedRequest) => Answer)): void;
  close(): Promise<void>;
}

/**
 * A scripted HTTP server on 127.0.0.1, port 0 (or `port`), that records what it receives: for the
 * answers a real Plant Store would never give (500, HTML, slow), where the real one cannot stand
 * in; and as any other process listening on this machine, or a proxy, to prove what reaches it.
 */
export async function fakeService(port = 0): Promise<FakeService> {
  const requests: RecordedRequest[] = [];
  let script: Answer | ((request: RecordedRequest) => Answer) = { status: 200, body: '{"name":"Fern"}' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const answer = typeof script === 'function' ? script(recorded) : script;
      const send = () => {
        if (res.destroyed) return;
        if (answer.drop === true) return void req.socket.destroy();
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    answer: (next) => {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
