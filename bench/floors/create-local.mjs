// Floor for figure 2: the least a create --local does with the libraries plants requires:
// commander and a zod/mini NewPlant, then, as plants does (src/store/file/store-lock.ts, wal.ts),
// a lock directory, the store and its journal read for the ids, and one fsynced append to the
// journal. No exact int64, no checks of the store, no error handling.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, rmdirSync, writeSync } from 'node:fs';
import { Command } from 'commander';
import * as z from 'zod/mini';

const NewPlant = z.object({ id: z.bigint(), name: z.string(), tag: z.optional(z.string()) });

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
    const journal = `${path}.journal`;
    mkdirSync(`${path}.lock`);
    const ids = new Set(JSON.parse(readFileSync(path, 'utf8')).plants.map((stored) => BigInt(stored.id)));
    if (existsSync(journal))
      for (const line of readFileSync(journal, 'utf8').split('\n'))
        if (line !== '') ids.add(BigInt(JSON.parse(line).id));
    if (ids.has(plant.id)) throw new Error('duplicate id');
    const fd = openSync(journal, 'a');
    writeSync(fd, `${JSON.stringify({ ...plant, id: Number(plant.id) })}\n`);
    fsyncSync(fd);
    closeSync(fd);
    rmdirSync(`${path}.lock`);
    process.stdout.write(`Created plant ${plant.id}\n`);
  });
program.parseAsync();
