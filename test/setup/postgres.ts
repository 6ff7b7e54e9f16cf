import { testServer } from '../helpers/postgres-server.js';

/**
 * Global setup of the e2e set (vitest.config.ts): the PostgreSQL server of this run, found or
 * started once, before any test worker starts, and handed to the workers (which inherit this
 * process's environment) as PLANTS_TEST_DATABASE_URL. Returns the teardown that stops it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await testServer((line) => console.log(line));
  process.env.PLANTS_TEST_DATABASE_URL = server.url;
  return () => server.stop();
}
