#!/usr/bin/env node
'use strict';
// Node's compile cache (Node 22.1 and later): V8's code for what a run compiles is kept in a
// directory Node chooses (NODE_COMPILE_CACHE, else its folder in the OS temp directory), never in
// the installed package, so that later runs skip parsing and compiling it. Node 20 has none.
require('node:module').enableCompileCache?.();
require('../dist/cli/main.js')
  .main()
  .then((code) => {
    process.exitCode = code;
  });
