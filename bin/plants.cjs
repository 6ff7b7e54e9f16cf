#!/usr/bin/env node
'use strict';
// CommonJS on purpose, like dist/: Node 20 starts a CommonJS program several milliseconds sooner
// than an ES module one (README, Performance).
require('../dist/cli/fast-start.js').fastStart();
require('../dist/cli/process-context.js')
  .main()
  .then((code) => {
    process.exitCode = code;
  });
