// Preloaded into a measured process (NODE_OPTIONS=--require): writes its peak resident set size,
// in KiB, to the file named by PLANTS_BENCH_RSS_FILE when it exits.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.PLANTS_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
