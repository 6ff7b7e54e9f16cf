import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, startPlants, finished } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal } from '../helpers/terminal.js';
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

describe.runIf(process.platform === 'linux')('plants login on a terminal', () => {
  it('asks for the token without echoing it, and saves it', async () => {
    const home = await tempDir();
    const output = await onTerminal(`${process.execPath} ${BIN} login --base-url https://plants.example.com`, isolatedEnv(home, { NO_COLOR: '1' }), {
      after: 'input hidden',
      keys: `${SECRET}x\u007f\r`,
    });
    expect(output).toContain('Token for https://plants.example.com (input hidden): ');
    expect(output).toContain('Logged in to https://plants.example.com');
    expect(output).not.toContain(SECRET.slice(0, 8));
    const saved = JSON.parse(readFileSync(join(home, 'config/config.json'), 'utf8'));
    expect(saved.services['https://plants.example.com'].token).toBe(SECRET);
  });
});
