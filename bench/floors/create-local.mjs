// Floor for figure 2: the least a create --local does with the libraries plants requires:
// commander and a zod/mini NewPlant, then a lock directory and an atomic write with node:fs, as
// plants does them (src/store/store-lock.ts, durable-file.ts). No exact int64, no checks of the
// store, no directory fsync, no error handling.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, writeSync } from 'node:fs';
import { Command } from 'commander';
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
    mkdirSync(`${path}.lock`);
    const store = JSON.parse(readFileSync(path, 'utf8'));
    if (store.plants.some((stored) => BigInt(stored.id) === plant.id)) throw new Error('duplicate id');
    store.plants.push({ ...plant, id: Number(plant.id) });
    const temp = `${path}.tmp`;
    const fd = openSync(temp, 'wx');
    writeSync(fd, JSON.stringify(store));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
    rmdirSync(`${path}.lock`);
    process.stdout.write(`Created plant ${plant.id}\n`);
  });
program.parseAsync();
