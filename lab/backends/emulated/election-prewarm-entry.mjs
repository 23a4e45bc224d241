// The election prewarm thread's first module. A worker does not inherit the main thread's TypeScript
// loader, so it registers tsx itself, as lab/cli/lblab.mjs does, before loading the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./election-prewarm-main.ts');
