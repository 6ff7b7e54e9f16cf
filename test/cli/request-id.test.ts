import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeProxy } from '../helpers/fake-proxy.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { testContext } from '../helpers/test-context.js';

const TOKEN = 'tok_9f8e7d6c5b4a39281706';

let service: FakeService;
let proxy: Awaited<ReturnType<typeof fakeProxy>>;
beforeEach(async () => {
  service = await fakeService();
  proxy = await fakeProxy();
});
afterEach(async () => {
  await service.close();
  await proxy.close();
});

// Straight to the service, and through a proxy's tunnel.
describe.each([
  ['straight to the service', () => ({ PLANTS_BASE_URL: service.url })],
  ['through a proxy', () => ({ PLANTS_BASE_URL: service.url, HTTP_PROXY: proxy.url })],
])("the service's request id in a 5xx error (%s)", (_transport, env) => {
  const run = async (...args: string[]) => {
    const t = await testContext({ env: { PLANTS_TOKEN: TOKEN, ...env() } });
    return { code: await t.run(...args), stderr: t.stderr() };
  };

  it("quotes it for a 500 and a 503, so the user can find the request in the service's log", async () => {
    service.answer({
      status: 500,
      body: '{"error":1013,"message":"internal error: the plant may or may not have been stored"}',
      headers: { 'x-request-id': 'req-7f3a-01' },
    });
    const failed = await run('create', '--id', '1', '--name', 'Fern');
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/^error: the service answered HTTP 500 with .* \(request id req-7f3a-01\)\n/);
    service.answer({
      status: 503,
      body: '{"error":1009,"message":"busy"}',
      headers: { 'x-request-id': 'req-7f3a-02' },
    });
    const unavailable = await run('get', '--id', '1');
    expect(unavailable.code).toBe(4);
    expect(unavailable.stderr).toBe(
      'error: the service is unavailable (HTTP 503): busy; nothing was read (request id req-7f3a-02)\n',
    );
  });

  it('leaves it out of a 4xx, and shows a hostile one escaped', async () => {
    service.answer({ status: 400, body: '{"error":1001,"message":"bad"}', headers: { 'x-request-id': 'req-400' } });
    expect((await run('create', '--id', '1', '--name', 'Fern')).stderr).not.toContain('req-400');
    // A C1 control (CSI): a terminal may take it as the start of an escape sequence.
    service.answer({ status: 502, body: '', headers: { 'x-request-id': 'a\u009b31mred' } });
    const hostile = await run('create', '--id', '1', '--name', 'Fern');
    expect(hostile.stderr).toContain('(request id a\\u009b31mred)');
    expect(hostile.stderr).not.toContain('\u009b');
  });
});
