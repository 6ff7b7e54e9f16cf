import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { fakeProxy } from '../helpers/fake-proxy.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir, tempDirForFile } from '../helpers/temp.js';

// The proxy decided for the service's host, with the real bin against a real plants serve.

describe('a proxy variable, and NO_PROXY', () => {
  let home: string;
  let server: RunningServer;
  let deadProxy: string;
  beforeAll(async () => {
    home = await tempDirForFile();
    server = await startServer(home);
    // A proxy that is not running: its port refuses.
    const gone = await scriptedServer(() => undefined);
    await gone.close();
    deadProxy = gone.url;
  });
  afterAll(async () => {
    await server.stop();
  });

  const env = (more: Record<string, string>) =>
    isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token, ...more });

  it('reaches a local plants serve where HTTP_PROXY names a dead proxy and NO_PROXY names the host', async () => {
    const create = ['create', '--id', '1', '--name', 'Fern'];
    const created = await runPlants(create, env({ HTTP_PROXY: deadProxy, NO_PROXY: '127.0.0.1' }));
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const byPort = `localhost,127.0.0.1:${new URL(server.url).port}`;
    const listed = await runPlants(['list', '--json'], env({ http_proxy: deadProxy, no_proxy: byPort }));
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: 1, name: 'Fern' }]);
    const input = join(home, 'rows.ndjson');
    writeFileSync(input, '{"id":2,"name":"Oak"}\n{"id":3,"name":"Ash"}\n');
    const imported = await runPlants(['import', input, '--json'], env({ HTTP_PROXY: deadProxy, NO_PROXY: '*' }));
    expect(imported.code).toBe(0);
    expect([...(await storedPlants(server.store)).keys()]).toEqual([1n, 2n, 3n]);
  });

  it('goes through the proxy otherwise, and says the proxy could not be reached (exit 4, nothing sent)', async () => {
    const create = ['create', '--id', '9', '--name', 'Elm'];
    const result = await runPlants(create, env({ HTTP_PROXY: deadProxy, NO_PROXY: 'example.com' }));
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `error: could not connect to the proxy ${deadProxy} for ${server.url}/plants: connection refused\n` +
        'hint: is the proxy running, at that URL? HTTPS_PROXY or HTTP_PROXY names it; ' +
        'NO_PROXY names the hosts reached without it\n',
    );
    expect((await storedPlants(server.store)).has(9n)).toBe(false);
  });

  it('goes through a running proxy, a CONNECT tunnel to the service', async () => {
    const proxy = await fakeProxy();
    try {
      const result = await runPlants(['create', '--id', '4', '--name', 'Yew'], env({ HTTP_PROXY: proxy.url }));
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(proxy.tunnels).toEqual([new URL(server.url).host]);
    } finally {
      await proxy.close();
    }
  });
});

/** A self-signed certificate for localhost (and no other name), made by openssl, where there is one. */
function certificate(dir: string): { key: string; cert: string } | undefined {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  const names = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'];
  try {
    execFileSync('openssl', [...args, ...names, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

describe('an https service through HTTPS_PROXY', () => {
  it('speaks TLS to the service inside the tunnel, the certificate checked for its name', async () => {
    const home = await tempDir();
    const tls = certificate(home);
    if (tls === undefined) return void console.warn('no openssl: the https test is left out');
    const seen: string[] = [];
    const service = createHttpsServer(tls, (request, response) => {
      seen.push(`${request.method} ${request.url}`);
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"Fern"}'));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const proxy = await fakeProxy();
    try {
      const { port } = service.address() as AddressInfo;
      const trusting = { NODE_EXTRA_CA_CERTS: join(home, 'cert.pem') };
      const env = isolatedEnv(home, { PLANTS_TOKEN: 't', HTTPS_PROXY: proxy.url, ...trusting });
      const run = (host: string) =>
        runPlants(['create', '--id', '1', '--name', 'Fern', '--base-url', `https://${host}:${port}`], env);
      expect(await run('localhost')).toMatchObject({ code: 0, stderr: '' });
      expect(proxy.tunnels).toEqual([`localhost:${port}`]);
      expect(seen).toEqual(['POST /plants']);
      // The same service by an address its certificate does not name: refused before anything is sent.
      const wrongName = await run('127.0.0.1');
      expect(wrongName.code).toBe(4);
      expect(wrongName.stderr).toMatch(
        /^error: could not connect to https:\/\/127\.0\.0\.1:\d+\/plants: .*\(ERR_TLS_CERT_ALTNAME_INVALID\)\n$/,
      );
      expect(seen).toEqual(['POST /plants']);
    } finally {
      await proxy.close();
      service.closeAllConnections();
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
