// Floor for figure 2: the least a create --local does with the libraries plants requires:
// commander, a zod/mini NewPlant, proper-lockfile, write-file-atomic, used as plants uses them
// (a synchronous lock given node:fs's sync calls, a synchronous atomic write; see
// src/store/store-lock.ts and file-store.ts). No exact int64, no checks of the store, no directory
// fsync, no error handling.
import { mkdirSync, readFileSync, rmdirSync, statSync, utimesSync } from 'node:fs';
import { Command } from 'commander';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import * as z from 'zod/mini';

const NewPlant = z.object({ id: z.bigint(), name: z.string().check(z.minLength(1)), tag: z.optional(z.string()) });

const program = new Command('plants');
program
  .command('create')
  .option('--local')
  .option('--id <id>')
  .option('--name <name>')
  .option('--tag <tag>')
  .action((options) => {
    const plant = NewPlant.parse({ id: BigInt(options.id), name: options.name, tag: options.tag });
    const path = process.env.PLANTS_STORE;
    const release = lockfile.lockSync(path, { realpath: false, fs: { mkdirSync, rmdirSync, statSync, utimesSync } });
    const store = JSON.parse(readFileSync(path, 'utf8'));
    if (store.plants.some((stored) => BigInt(stored.id) === plant.id)) throw new Error('duplicate id');
    store.plants.push({ ...plant, id: Number(plant.id) });
    writeFileAtomic.sync(path, JSON.stringify(store), { fsync: true });
    release();
    process.stdout.write(`Created plant ${plant.id}\n`);
  });
program.parseAsync();
