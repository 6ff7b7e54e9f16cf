import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeProxy } from '../helpers/fake-proxy.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { testContext } from '../helpers/test-context.js';

const TOKEN = 'tok_9f8e7d6c5b4a39281706';

let service: FakeService;
beforeEach(async () => {
  service = await fakeService();
});
afterEach(async () => {
  await service.close();
});

async function remote(extraEnv: Record<string, string> = {}) {
  return testContext({ env: { PLANTS_TOKEN: TOKEN, PLANTS_BASE_URL: service.url, ...extraEnv } });
}

function expectNoToken(t: { stdout(): string; stderr(): string }) {
  expect(t.stdout()).not.toContain(TOKEN);
  expect(t.stderr()).not.toContain(TOKEN);
}

describe('plants create (remote)', () => {
  it('POSTs the exact NewPlant with the bearer token and shows the plant with the id it sent', async () => {
    service.answer({ status: 200, body: '{"name":"Max","tag":"herb"}' });
    const t = await remote();
    expect(await t.run('create', '--id', '9223372036854775807', '--name', 'Max', '--tag', 'herb', '--json')).toBe(0);
    const [request] = service.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/plants',
      body: '{"id":9223372036854775807,"name":"Max","tag":"herb"}',
    });
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(t.stdout()).toBe('{\n  "id": 9223372036854775807,\n  "name": "Max",\n  "tag": "herb"\n}\n');
    expect(t.stderr()).toBe('');
  });

  it('sends -9223372036854775808 digit for digit', async () => {
    service.answer({ status: 200, body: '{"name":"Min"}' });
    const t = await remote();
    expect(await t.run('create', '--id', '-9223372036854775808', '--name', 'Min')).toBe(0);
    expect(service.requests[0]?.body).toBe('{"id":-9223372036854775808,"name":"Min"}');
    expect(t.stdout()).toBe(`Created plant -9223372036854775808 "Min" in ${service.url}\n`);
  });

  it('appends /plants to a base URL with a path prefix', async () => {
    const t = await remote({ PLANTS_BASE_URL: `${service.url}/api/v1/` });
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(0);
    expect(service.requests[0]?.url).toBe('/api/v1/plants');
  });

  it('sends nothing for an invalid plant (exit 2)', async () => {
    const t = await remote();
    expect(await t.run('create', '--id', '0x10', '--name', 'x'.repeat(1001))).toBe(2);
    expect(service.requests).toHaveLength(0);
    expect(t.stderr()).toBe(
      'error: invalid plant:\n  id must be a base-10 integer, got "0x10"\n  name must be at most 1,000 characters\n',
    );
  });

  it('shows the service’s Error for a 400 (exit 1)', async () => {
    service.answer({ status: 400, body: '{"error":1002,"message":"a plant with id 1 already exists"}' });
    const t = await remote();
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(1);
    expect(t.stderr()).toBe('error: the service refused the plant: a plant with id 1 already exists (error 1002)\n');
    expect(t.stdout()).toBe('');
  });

  it('gives the service’s error number in the --json failure document', async () => {
    service.answer({ status: 400, body: '{"error":7,"message":"no ferns today"}' });
    const t = await remote();
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--json')).toBe(1);
    expect(JSON.parse(t.stdout())).toEqual({
      error: 7,
      code: 'refused',
      message: 'the service refused the plant: no ferns today (error 7)',
    });
    expect(t.stderr()).toBe('');
  });

  it.each([429, 503])('reports a final %i as the service unavailable, nothing created (exit 4)', async (status) => {
    service.answer({ status, body: '{"error":1009,"message":"busy"}' });
    const t = await remote();
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(4);
    expect(t.stderr()).toBe(`error: the service is unavailable (HTTP ${status}): busy; nothing was created\n`);
    expect(service.requests).toHaveLength(1);
  });

  it.each([401, 403])('reports %i as an authentication error with a hint to log in (exit 3)', async (status) => {
    service.answer({ status, body: '{"error":1006,"message":"bad token"}' });
    const t = await remote();
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(3);
    expect(t.stderr()).toContain(`error: the service refused the token (HTTP ${status}): bad token`);
    expect(t.stderr()).toContain('hint: log in to this service again with plants login');
    expectNoToken(t);
  });

  it.each([
    [{ status: 500, body: 'Internal Server Error' }, 'the service answered HTTP 500 with “Internal Server Error”'],
    [{ status: 502, body: '' }, 'the service answered HTTP 502 with an empty body'],
    [
      { status: 200, body: '<html>hello</html>' },
      'the service answered HTTP 200 (the body is not a Plant) with “<html>hello</html>”',
    ],
    [
      { status: 200, body: '{"nom":"Fern"}' },
      'the service answered HTTP 200 (the body is not a Plant) with “{"nom":"Fern"}”',
    ],
    [
      { status: 400, body: '{"oops":true}' },
      'the service answered HTTP 400 (the body is not an Error) with “{"oops":true}”',
    ],
    [
      { status: 302, body: '', headers: { location: '/elsewhere' } },
      'the service answered HTTP 302, a redirect to /elsewhere, which plants does not follow',
    ],
    [
      { status: 301, body: '', headers: { location: 'https://new.example.com/plants' } },
      'the service answered HTTP 301, a redirect to https://new.example.com/plants, which plants does not ' +
        'follow: the plant may or may not have been created\n',
    ],
    [{ status: 500, body: 'x\u001b[31mred\ny'.repeat(30) }, 'the service answered HTTP 500 with “x\\u001b[31mred\\nyx'],
  ])('reports an answer outside the contract as a server error (exit 4): %j', async (answer, message) => {
    service.answer(answer);
    const t = await remote();
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(4);
    expect(t.stderr()).toContain(`error: ${message}`);
    expect(t.stderr()).not.toContain('\u001b');
    expect(t.stderr()).not.toMatch(/\n\s+at /);
  });

  it('stops reading an answer too big to be a Plant (exit 4)', async () => {
    service.answer({ status: 200, body: 'x'.repeat(2 * 1024 * 1024) });
    const t = await remote();
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(4);
    expect(t.stderr()).toContain('error: the service answered HTTP 200 with a body over 1048576 bytes');
  });

  it('gives up on a slow answer after --timeout, saying the plant may exist (exit 4)', async () => {
    service.answer({ status: 200, body: '{"name":"Fern"}', delayMs: 3000 });
    const t = await remote();
    const started = Date.now();
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--timeout', '0.3')).toBe(4);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(t.stderr()).toBe(
      `error: no answer from ${service.url}/plants within 0.3s; the request was sent, so the plant may or may ` +
        'not have been created\n',
    );
  });

  it('reports a refused connection (exit 4) and sends the POST once only', async () => {
    const port = await closedPort();
    const t = await testContext({ env: { PLANTS_TOKEN: TOKEN, PLANTS_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--json')).toBe(4);
    expect(JSON.parse(t.stdout())).toMatchObject({
      error: 2004,
      code: 'unreachable',
      message: `could not connect to http://127.0.0.1:${port}/plants: connection refused`,
    });
  });

  it('is not retried when the connection drops after the request was sent', async () => {
    service.answer({ status: 200, delayMs: 100_000 });
    const t = await remote();
    const run = t.run('create', '--id', '1', '--name', 'Fern');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await service.close();
    expect(await run).toBe(4);
    expect(service.requests).toHaveLength(1);
    expect(t.stderr()).toContain('the plant may or may not have been created');
  });

  it('needs a token: exit 3 with a hint, nothing sent', async () => {
    const t = await testContext({ env: { PLANTS_BASE_URL: service.url } });
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(3);
    expect(t.stderr()).toBe(
      `error: no token for ${service.url}\nhint: run plants login --base-url ${service.url} (or set ` +
        'PLANTS_TOKEN), or use --local\n',
    );
    expect(service.requests).toHaveLength(0);
  });

  it("never sends one service's saved token to another, and names the services it has tokens for", async () => {
    const t = await testContext();
    expect(
      await t.run(
        'login',
        '--no-check',
        '--token',
        'token-of-the-other-service',
        '--base-url',
        'http://other.example:1',
      ),
    ).toBe(0);
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--base-url', service.url)).toBe(3);
    expect(t.stderr()).toContain(
      `error: no token for ${service.url} (tokens are saved for http://other.example:1, and are sent only there)`,
    );
    expect(service.requests).toHaveLength(0);
    expect(await t.run('login', '--no-check', '--token', TOKEN, '--base-url', `${service.url}/`)).toBe(0);
    service.answer({ status: 200, body: '{"name":"Fern"}' });
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--base-url', service.url)).toBe(0);
    expect(service.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('reads an older config with one token as the token of the base URL beside it, and of no other', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true });
    await writeFile(
      join(t.ctx.configDir, 'config.json'),
      JSON.stringify({ 'base-url': `${service.url}/`, token: TOKEN }),
      { mode: 0o600 },
    );
    service.answer({ status: 200, body: '{"name":"Fern"}' });
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(0);
    expect(service.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await t.run('create', '--id', '2', '--name', 'Oak', '--base-url', 'http://127.0.0.1:1')).toBe(3);
    expect(service.requests).toHaveLength(1);
    // The next write moves it under its service.
    expect(await t.run('config', 'set', 'timeout', '9')).toBe(0);
    expect(JSON.parse(await readFile(join(t.ctx.configDir, 'config.json'), 'utf8'))).toEqual({
      'base-url': `${service.url}/`,
      timeout: '9',
      services: { [service.url]: { token: TOKEN } },
    });
  });

  it('reports a bad --timeout or --base-url as a usage error (exit 2) before a missing token', async () => {
    const t = await testContext({ env: { PLANTS_BASE_URL: service.url } });
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--timeout', '0')).toBe(2);
    expect(t.stderr()).toMatch(/^error: timeout must be .* \(from --timeout\)\n/);
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--base-url', 'ftp://x')).toBe(2);
    expect(t.stderr()).toContain('error: base URL must start with http:// or https://, got ftp: (from --base-url)\n');
    expect(service.requests).toHaveLength(0);
  });

  it('goes through HTTP_PROXY, and around it for hosts in NO_PROXY', async () => {
    const proxy = await fakeProxy();
    try {
      const proxied = await remote({ HTTP_PROXY: proxy.url });
      expect(await proxied.run('create', '--id', '1', '--name', 'Fern')).toBe(0);
      expect(proxy.tunnels).toEqual([new URL(service.url).host]);
      const direct = await remote({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      expect(await direct.run('create', '--id', '2', '--name', 'Oak')).toBe(0);
      expect(proxy.tunnels).toHaveLength(1);
      expect(service.requests).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it.each([
    ['HTTP_PROXY', 'notaurl'],
    ['https_proxy', 'ftp://proxy:21'],
  ])('refuses %s=%s as a usage error naming it (exit 2), sending nothing', async (name, value) => {
    const t = await remote({ [name]: value });
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(2);
    expect(t.stderr()).toBe(
      `error: ${name} is not a proxy URL: "${value}" (expected e.g. http://proxy.example.com:3128)\nhint: fix ` +
        `or unset ${name}\n`,
    );
    expect(service.requests).toHaveLength(0);
  });

  it.each([
    ['HTTP_PROXY', 'http://user:s3cret@[bad', 'http://user:***@[bad'],
    ['https_proxy', 'user:s3cret@proxy:3128', 'user:***@proxy:3128'],
    ['HTTPS_PROXY', 'ftp://s3cret@proxy:21', 'ftp://***@proxy:21'],
    ['http_proxy', 'http://us:er:s3c@ret@', 'http://us:***@'],
  ])('refuses %s=%s naming it, with its password masked', async (name, value, shown) => {
    const t = await remote({ [name]: value });
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(2);
    expect(t.stderr()).toBe(
      `error: ${name} is not a proxy URL: "${shown}" (expected e.g. http://proxy.example.com:3128)\nhint: fix ` +
        `or unset ${name}\n`,
    );
    const json = await remote({ [name]: value });
    expect(await json.run('create', '--id', '1', '--name', 'Fern', '--json')).toBe(2);
    expect(json.stdout()).toContain(shown);
    expect(t.stderr() + json.stdout() + json.stderr()).not.toMatch(/s3c/);
    expect(service.requests).toHaveLength(0);
  });
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
