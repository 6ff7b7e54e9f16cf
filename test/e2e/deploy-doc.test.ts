import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../helpers/cli-process.js';
import { shellBlocks } from '../helpers/readme-blocks.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * docs/deploy.md: its shell examples run; its unit is verified and its ExecStart run; its other files agree with the
 * unit.
 */
const DOC = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

function fenced(kind: string): string {
  const found = new RegExp(`\`\`\`${kind}\\n([\\s\\S]*?)\`\`\``).exec(DOC);
  if (found === null) throw new Error(`docs/deploy.md has no ${kind} block`);
  return found[1] as string;
}

const UNIT = fenced('ini');
const EXEC_START = /^ExecStart=(.*)$/m.exec(UNIT)?.[1] as string;
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

/** A home with `plants` on the PATH, as a reader who installed it has. */
async function readerHome(): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempDir();
  mkdirSync(join(home, 'bin'));
  symlinkSync(BIN, join(home, 'bin', 'plants'));
  return {
    home,
    env: {
      ...isolatedEnv(home),
      PATH: [join(home, 'bin'), dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    },
  };
}

describe('docs/deploy.md', () => {
  const blocks = shellBlocks(DOC);

  it('has its examples to run', () => {
    expect(blocks.filter((block) => block.skip === undefined && block.kind === 'sh').length).toBeGreaterThan(0);
  });

  for (const block of blocks.filter((each) => each.skip === undefined && each.kind === 'sh')) {
    it(`runs the example at line ${block.line}`, async () => {
      const { home, env } = await readerHome();
      const run = spawnSync('bash', ['-c', `exec 2>&1\nset -euo pipefail\n${block.body}`], {
        cwd: home,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stdout).toBe(0);
      // Ready, then not (stopping), and still serving during the delay.
      expect(run.stdout).toContain('{"status":"ready"}');
      expect(run.stdout).toContain('plants_store_outage 0');
      expect(run.stdout).toContain('{"status":"not_ready","reason":"stopping"}');
      expect(run.stdout).toContain('{"name":"Late fern"}');
      expect(run.stdout).toMatch(/POST \/plants 200 \d+ms request-id=\S+ batch=1/);
    });
  }

  it.skipIf(!hasSystemdAnalyze)('has a systemd unit that systemd-analyze verify takes without a word', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'plants.service'), UNIT);
    const verify = spawnSync('systemd-analyze', ['verify', join(dir, 'plants.service')], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(verify.stderr).toBe('');
    expect(verify.status).toBe(0);
    expect(UNIT).toMatch(/^Restart=on-failure$/m);
    expect(UNIT).toMatch(/^LoadCredential=tokens:/m);
  });

  it("has a unit whose ExecStart serves with the credential's token, ready, and exits 0 on SIGTERM", async () => {
    const { home, env } = await readerHome();
    const credentials = join(home, 'credentials');
    mkdirSync(credentials);
    writeFileSync(join(credentials, 'tokens'), 'unit-token-0123456789\n', { mode: 0o600 });
    mkdirSync(join(home, 'var/lib/plants'), { recursive: true });
    // Only the paths and the ports change: its own directories, any free port, this machine only.
    const command = EXEC_START.replace(/^\/bin\/sh -c '/, '')
      .replace(/'$/, '')
      .replaceAll('/usr/local/bin/plants', join(home, 'bin', 'plants'))
      .replaceAll('/var/lib', join(home, 'var/lib'))
      .replace('--host 0.0.0.0 --port 8080', '--host 127.0.0.1 --port 0')
      .replace('--admin-host 0.0.0.0 --admin-port 9090', '--admin-host 127.0.0.1 --admin-port 0');
    const child = spawn('/bin/sh', ['-c', command], {
      env: { ...env, CREDENTIALS_DIRECTORY: credentials },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    try {
      const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      await waitFor('the admin line', () => /admin .* on http:\/\/[\d.:]+/.test(log));
      const admin = /admin .* on (http:\/\/[\d.:]+)/.exec(log)?.[1] as string;
      expect((await request(`${admin}/readyz`)).statusCode).toBe(200);
      const created = await request(`${url}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer unit-token-0123456789', 'content-type': 'application/json' },
        body: '{"id": 1, "name": "Fern"}',
      });
      expect(created.statusCode).toBe(200);
      await created.body.text();
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      for (const line of log.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ level: expect.any(String) });
      expect(log).not.toContain('unit-token-0123456789');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it("has nginx and Prometheus files that name the unit's ports", () => {
    const port = /--port (\d+)/.exec(EXEC_START)?.[1];
    const adminPort = /--admin-port (\d+)/.exec(EXEC_START)?.[1];
    const nginx = fenced('nginx');
    expect([...nginx.matchAll(/server [\d.]+:(\d+)/g)].map((match) => match[1])).toEqual([port, port]);
    expect(nginx).toContain(`health_check port=${adminPort} uri=/readyz`);
    const prometheus = fenced('yaml');
    expect([...prometheus.matchAll(/'[\d.]+:(\d+)'/g)].map((match) => match[1])).toEqual([adminPort, adminPort]);
  });
});
