import { describe, expect, it } from 'vitest';
import { testContext } from '../helpers/test-context.js';

/** How many times `text` holds `part`. */
const times = (text: string, part: string) => text.split(part).length - 1;

describe('plants auth status names each service once a line (issue 40)', () => {
  it('with no token: the base URL setting, and plants login to save one', async () => {
    const t = await testContext();
    expect(await t.run('auth', 'status')).toBe(3);
    expect(t.stdout()).toBe('http://127.0.0.1:8080  -  no token\n');
    // It said "http://127.0.0.1:8080: no token saved for http://127.0.0.1:8080: run plants login --base-url
    // http://127.0.0.1:8080".
    expect(t.stderr()).toBe('http://127.0.0.1:8080: no token saved: run plants login\n');
  });

  it('with no token for --base-url: the login that saves one for it', async () => {
    const t = await testContext();
    expect(await t.run('auth', 'status', '--base-url', 'http://127.0.0.1:7')).toBe(3);
    expect(t.stderr()).toBe('no token saved: run plants login --base-url http://127.0.0.1:7\n');
    const json = await testContext();
    expect(await json.run('auth', 'status', '--base-url', 'http://127.0.0.1:7', '--json')).toBe(3);
    const message = 'no token saved: run plants login --base-url http://127.0.0.1:7';
    expect(JSON.parse(json.stdout())).toEqual({
      services: [{ baseUrl: 'http://127.0.0.1:7', token: null, source: null, status: 'no token', message }],
    });
  });

  it('with a service it cannot ask: its failure, which names it', async () => {
    const t = await testContext();
    const login = ['login', '--no-check', '--base-url', 'http://127.0.0.1:1', '--token', 'token-of-nobody-at-all'];
    expect(await t.run(...login)).toBe(0);
    const said = t.stderr().length;
    expect(await t.run('auth', 'status')).toBe(4);
    const line = t.stderr().slice(said);
    expect(line).toMatch(/^could not connect to http:\/\/127\.0\.0\.1:1\/plants: /);
    expect(times(line, 'http://127.0.0.1:1')).toBe(1);
  });
});
