import { readFile } from 'node:fs/promises';
import { Pool } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

// Changing plants under load, through real plants serve processes: on one JSON file store, and on
// two instances sharing a PostgreSQL database. Concurrent changes of one id are made one after
// the other, none lost; If-Match lets exactly one of many racing on one state through; a kill
// loses no acknowledged change.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

let schemas = 0;
async function databaseUrl(): Promise<string> {
  const schema = `changes${++schemas}`;
  await db.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(db.url);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

async function serve(args: string[], home?: string): Promise<RunningServer> {
  const server = await startServer(home ?? (await tempDir()), args);
  servers.push(server);
  return server;
}

interface Answer {
  status: number;
  body: string;
}

/** A request through one of the servers' pools, in turn. */
function sender(targets: RunningServer[]) {
  const pools = targets.map((server) => new Pool(server.url, { connections: 16 }));
  let next = 0;
  return {
    async send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
      const server = targets[next % targets.length] as RunningServer;
      const pool = pools[next++ % pools.length] as Pool;
      const answer = await pool.request({
        method: method as 'PATCH',
        path,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
      });
      return { status: answer.statusCode, body: await answer.body.text() };
    },
    close: () => Promise.all(pools.map((pool) => pool.close())),
  };
}

interface State {
  name: string;
  tag?: string;
}

/**
 * The servers to change a plant through, and how to read back, in the order the store made them,
 * the states the plant went through: from the file store's journal, or from an audit table a
 * trigger fills as PostgreSQL updates the row (concurrent updates of a row wait for each other, so
 * its order is theirs).
 */
interface Started {
  targets: RunningServer[];
  history(id: number): Promise<State[]>;
}

/** On each kind of store: one file store behind one serve, or PostgreSQL behind two. */
const STORES: readonly (readonly [string, () => Promise<Started>])[] = [
  [
    'one plants serve on a JSON file store',
    async () => {
      const home = await tempDir();
      const store = `${home}/plants.json`;
      const targets = [await serve(['--store', store], home)];
      const history = async (id: number) =>
        (await readFile(`${store}.journal`, 'utf8'))
          .split('\n')
          .filter((line) => line.startsWith(`{"id":${id},`))
          .map((line) => {
            const { name, tag } = JSON.parse(line) as State;
            return tag === undefined ? { name } : { name, tag };
          });
      return { targets, history };
    },
  ],
  [
    'two plants serve on one PostgreSQL database',
    async () => {
      const url = await databaseUrl();
      const schema = `changes${schemas}`;
      const targets = [await serve(['--database', url]), await serve(['--database', url])];
      await db.query(`CREATE TABLE ${schema}.audit (seq bigserial, id bigint, name text, tag text)`);
      await db.query(
        `CREATE FUNCTION ${schema}.audit() RETURNS trigger AS $$ BEGIN INSERT INTO ${schema}.audit (id, name, ` +
          'tag) VALUES (NEW.id, NEW.name, NEW.tag); RETURN NEW; END $$ LANGUAGE plpgsql',
      );
      await db.query(
        `CREATE TRIGGER audit AFTER INSERT OR UPDATE ON ${schema}.plants FOR EACH ROW EXECUTE FUNCTION ` +
          `${schema}.audit()`,
      );
      const history = async (id: number) =>
        (
          await db.query<{ name: string; tag: string | null }>(
            `SELECT name, tag FROM ${schema}.audit WHERE id = $1 ORDER BY seq`,
            [id],
          )
        ).map(({ name, tag }) => (tag === null ? { name } : { name, tag }));
      return { targets, history };
    },
  ],
];

describe.each(STORES)('changing one plant from many clients at once: %s', (_name, start) => {
  it(
    'makes 200 concurrent patches one after the other: every answer 200, none lost, the last applied is what is ' +
      'stored',
    async () => {
      const { targets, history } = await start();
      const client = sender(targets);
      try {
        expect((await client.send('POST', '/plants', '{"id":7,"name":"start","tag":"start"}')).status).toBe(200);
        // Half change the name, half the tag: a change made on a stale read would undo the other field.
        const patches = Array.from({ length: 200 }, (_, i) =>
          i % 2 === 0 ? { name: `name ${i}` } : { tag: `tag ${i}` },
        );
        const answers = await Promise.all(
          patches.map((patch) =>
            client.send('PATCH', '/plants/7', JSON.stringify(patch), {
              'content-type': 'application/merge-patch+json',
            }),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(patches.map(() => 200));
        // Each answer is the plant as that patch left it: its own field, and the other as it was then.
        answers.forEach((answer, i) => expect(JSON.parse(answer.body)).toMatchObject(patches[i] as object));
        const stored = await client.send('GET', '/plants/7');
        // The last patch applied answered what is stored; a lost update would leave a plant no answer showed.
        expect(answers.map((answer) => answer.body)).toContain(stored.body);
        const { name, tag } = JSON.parse(stored.body) as { name: string; tag: string };
        expect(name).toMatch(/^name \d+$/);
        expect(tag).toMatch(/^tag \d+$/);
        // The states the plant went through, in the order the store made them (a patch a write, or a
        // batch's patches a write): every value is a patch's own, so one that was replaced never comes
        // back. A patch decided on a stale read would put back the other field as it was before a
        // change it did not see.
        const states = await history(7);
        expect(states[0]).toEqual({ name: 'start', tag: 'start' });
        for (const field of ['name', 'tag'] as const) {
          const replaced = new Set<string>();
          states.forEach((state, i) => {
            const before = states[i - 1];
            if (before === undefined || before[field] === state[field]) return;
            replaced.add(before[field] as string);
            expect(replaced.has(state[field] as string), `the ${field} ${state[field]} came back in change ${i}`).toBe(
              false,
            );
          });
        }
        const last = JSON.parse(stored.body) as State & { id: number };
        expect({ ...states.at(-1), id: last.id }).toEqual(last);
      } finally {
        await client.close();
      }
    },
  );

  it('lets exactly one of 200 changes If-Match the same state through, and refuses the rest with 412', async () => {
    const { targets } = await start();
    const client = sender(targets);
    try {
      const created = await client.send('PUT', '/plants/8', '{"name":"contended"}');
      expect(created.status).toBe(201);
      const etag = await fetchEtag(targets[0] as RunningServer, 8);
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          client.send(i % 2 === 0 ? 'PATCH' : 'PUT', '/plants/8', `{"name":"winner ${i}"}`, { 'if-match': etag }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(199);
      const winner = answers.find((answer) => answer.status === 200) as Answer;
      expect(JSON.parse((await client.send('GET', '/plants/8')).body)).toEqual(JSON.parse(winner.body));
    } finally {
      await client.close();
    }
  });
});

/** The ETag a GET answers for a plant. */
async function fetchEtag(server: RunningServer, id: number): Promise<string> {
  const response = await fetch(`${server.url}/plants/${id}`, { headers: { authorization: `Bearer ${server.token}` } });
  await response.text();
  return response.headers.get('etag') as string;
}

describe.each([
  ['a JSON file store', async (home: string) => ['--store', `${home}/plants.json`]],
  ['PostgreSQL', async () => ['--database', await databaseUrl()]],
] as const)('a plants serve killed mid-burst of changes, on %s', (_name, storeArgs) => {
  it('keeps every change it acknowledged: each client finds its last acknowledged value, or a later one', async () => {
    const home = await tempDir();
    const args = await storeArgs(home);
    const server = await serve(args, home);
    const client = sender([server]);
    const ids = Array.from({ length: 8 }, (_, i) => 100 + i);
    for (const id of ids) expect((await client.send('POST', '/plants', `{"id":${id},"name":"v0"}`)).status).toBe(200);
    // Each client changes its own plant, one change at a time, and notes what was acknowledged.
    const acknowledged = new Map(ids.map((id) => [id, 0]));
    let killed = false;
    const clients = ids.map(async (id) => {
      for (let version = 1; !killed; version += 1) {
        const body = version % 2 === 0 ? `{"name":"v${version}"}` : `{"name":"v${version}","tag":"odd"}`;
        const patching = version % 3 === 0;
        const answer = await client
          .send(patching ? 'PATCH' : 'PUT', `/plants/${id}`, body, {
            'content-type': patching ? 'application/merge-patch+json' : 'application/json',
          })
          .catch(() => undefined);
        if (answer === undefined) return;
        if (answer.status !== 200) throw new Error(`version ${version} of ${id}: ${answer.status} ${answer.body}`);
        acknowledged.set(id, version);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    killed = true;
    await server.stop('SIGKILL');
    await Promise.all(clients);
    await client.close();
    expect([...acknowledged.values()].every((version) => version > 0)).toBe(true);
    const stored = async () => {
      if (args[0] === '--store')
        return new Map([...(await storedPlants(args[1] as string))].map(([id, plant]) => [Number(id), plant.name]));
      const again = await serve(args);
      const reader = sender([again]);
      try {
        return new Map(
          await Promise.all(
            ids.map(
              async (id) => [id, JSON.parse((await reader.send('GET', `/plants/${id}`)).body).name as string] as const,
            ),
          ),
        );
      } finally {
        await reader.close();
      }
    };
    const names = await stored();
    for (const id of ids) {
      const last = acknowledged.get(id) as number;
      expect([`v${last}`, `v${last + 1}`], `plant ${id}`).toContain(names.get(id));
    }
  });
});
