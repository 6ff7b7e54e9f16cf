import { median, timed } from './lib/process.js';
const cases: [string, string[]][] = [
  ['node -e 0', ['-e', '0']],
  ['child_process', ['-e', 'require("child_process")']],
  ['stdout write', ['-e', 'process.stdout.write("x")']],
  ['os+fs/promises', ['-e', 'require("os");require("fs/promises")']],
  ['empty.mjs', ['/tmp/eb/e.mjs']],
  ['plants --version', ['bin/plants.js', '--version']],
];
const results = new Map<string, number[]>();
for (let round = 0; round < 25; round++) for (const [name, args] of cases) { const r = await timed(process.execPath, args); if (round >= 3) results.set(name, [...(results.get(name) ?? []), r.ms]); }
for (const [name, ms] of results) console.log(name.padEnd(20), median(ms).toFixed(1), 'ms');
