// The CLI straight from the TypeScript sources, through tsx: `npm run dev -- create --local …`.
// Installed copies run the compiled dist/ through bin/plants.cjs instead (tsx compiles at every start).
import { main } from './main.js';

process.exitCode = await main();
