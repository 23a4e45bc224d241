#!/usr/bin/env node
// The `lblab` command. Node 20 cannot run TypeScript by itself: runTypeScript runs the sources compiled
// (brought up to date first), or through tsx's loader where they cannot be; nothing needs building after
// `npm ci`.
import { runTypeScript } from '../../core/runtime/typescript.mjs';
import { keepYoungGenerationSmall } from '../../core/runtime/young-generation.mjs';

// The speaker must not stop for long: its threads' young generations stay small (young-generation.mjs).
if (process.argv[2] === 'speaker') keepYoungGenerationSmall();

// A reader that goes away (`lblab run | head`) ends only the output: the command still finishes, cleans
// up what it made (a lab's namespaces or containers) and exits with its own status.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
const { main } = await runTypeScript(new URL('./main.ts', import.meta.url));
process.exitCode = await main(process.argv);
