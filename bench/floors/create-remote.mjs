// Floor for figure 3: the least a remote create does with what plants requires: commander, a
// zod/mini NewPlant, one POST on node:http. No config file, no checks of the answer, no time-out.
import { request } from 'node:http';
import { Command } from 'commander';
import * as z from 'zod/mini';

const NewPlant = z.object({ id: z.bigint(), name: z.string().check(z.minLength(1)), tag: z.optional(z.string()) });

const program = new Command('plants');
program
  .command('create')
  .option('--id <id>')
  .option('--name <name>')
  .option('--tag <tag>')
  .action(async (options) => {
    const plant = NewPlant.parse({ id: BigInt(options.id), name: options.name, tag: options.tag });
    const body = `{"id":${plant.id},"name":${JSON.stringify(plant.name)}}`;
    const headers = {
      authorization: `Bearer ${process.env.PLANTS_TOKEN}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    };
    await new Promise((resolve, reject) => {
      const outgoing = request(`${process.env.PLANTS_BASE_URL}/plants`, { method: 'POST', headers }, (answer) =>
        answer.resume().on('end', resolve),
      );
      outgoing.on('error', reject).end(body);
    });
    process.stdout.write(`Created plant ${plant.id}\n`);
  });
program.parseAsync();
