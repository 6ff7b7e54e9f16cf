// Baseline for figure 6: read an NDJSON file, JSON.parse each line, write one JSON file.
// No validation, no exact ids, no lock, no fsync: the floor under plants import --local.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
const plants = readFileSync(input, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line));
writeFileSync(output, JSON.stringify({ plantStore: 1, plants }));
