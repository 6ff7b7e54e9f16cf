// Floor for figure 18: the least a list --local --limit 10 does with the libraries plants
// requires: commander, then the store file read and its first plants written a line each. No
// journal, no exact int64, no checks of the store, no error handling.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';

const program = new Command('plants');
program
  .command('list')
  .option('--local')
  .option('--limit <n>')
  .action((options) => {
    const plants = JSON.parse(readFileSync(process.env.PLANTS_STORE, 'utf8')).plants.slice(0, Number(options.limit));
    process.stdout.write(plants.map((plant) => `${plant.id}\t${plant.name}\t${plant.tag ?? ''}\n`).join(''));
  });
program.parseAsync();
