import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, startPlants, finished } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

const SECRET = 'S3CRET-token-0123456789';

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
}

let servers: RunningServer[] = [];
let services: FakeService[] = [];
afterEach(async () => {
  await Promise.all([...servers.map((server) => server.stop('SIGKILL')), ...services.map((service) => service.close())]);
  servers = [];
  services = [];
});

describe.runIf(process.platform === 'linux')('a --token never shows in the process title', () => {
  it('plants serve --token: ps shows "plants serve"', async () => {
    const server = await startServer(await tempDir(), ['--token', SECRET]);
    servers.push(server);
    expect(commandLine(server.child.pid as number)).toBe('plants serve');
  });

  it('plants create --token, while it waits for its answer: "plants create"', async () => {
    const service = await fakeService();
    services.push(service);
    service.answer({ status: 200, body: '{"name":"Fern"}', delayMs: 1_000 });
    const child = startPlants(['create', '--id', '1', '--name', 'Fern', '--base-url', service.url, '--token', SECRET], isolatedEnv(await tempDir()));
    const result = finished(child);
    await waitFor('the request', () => service.requests.length === 1);
    expect(commandLine(child.pid as number)).toBe('plants create');
    expect((await result).code).toBe(0);
  });
});
