#!/usr/bin/env node
// The `lblab` command. Node 20 cannot run TypeScript by itself, so tsx's loader is registered first;
// nothing needs building after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv);
