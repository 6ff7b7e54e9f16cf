// Floor for figure 17: the least a get --local does with the libraries plants requires:
// commander, then the store file read and its plant found by id. No lock (a read takes none), no
// journal, no exact int64, no checks of the store, no error handling.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';

const program = new Command('plants');
program
  .command('get')
  .option('--local')
  .option('--id <id>')
  .action((options) => {
    const plant = JSON.parse(readFileSync(process.env.PLANTS_STORE, 'utf8')).plants.find(
      (stored) => String(stored.id) === options.id,
    );
    process.stdout.write(
      `id   ${plant.id}\nname ${plant.name}\n${plant.tag === undefined ? '' : `tag  ${plant.tag}\n`}`,
    );
  });
program.parseAsync();
