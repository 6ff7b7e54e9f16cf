#!/usr/bin/env node
'use strict';
// Node's compile cache (Node 22.1 and later): V8's code for what a run compiles is kept in a
// directory Node chooses (NODE_COMPILE_CACHE, else its folder in the OS temp directory), never in
// the installed package, so that later runs skip parsing and compiling it. Node 20 has none.
require('node:module').enableCompileCache?.();
let cli;
try {
  cli = require('../dist/cli/main.js');
} catch (error) {
  // A clone not built yet (npm install does not build; npm run build, npm test and npm pack do).
  if (error.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write('plants: not built yet (no dist/): in a clone of plants, run npm run build\n');
  process.exit(70);
}
cli.main().then((code) => {
  process.exitCode = code;
});
