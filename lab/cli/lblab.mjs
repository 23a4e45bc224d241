#!/usr/bin/env node
// The `lblab` command. Node 20 cannot run TypeScript by itself, so tsx's loader is registered first;
// nothing needs building after `npm ci`.
import { register } from 'tsx/esm/api';

register();
// A reader that goes away (`lblab run | head`) ends only the output: the command still finishes, cleans
// up what it made (a lab's namespaces or containers) and exits with its own status.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv);
