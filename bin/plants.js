#!/usr/bin/env node
import { main } from '../dist/cli/process-context.js';

process.exitCode = await main();
