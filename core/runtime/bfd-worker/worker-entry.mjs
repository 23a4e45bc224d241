// The BFD worker thread's first module. A worker does not inherit the main thread's way of running TypeScript,
// so it starts its own through runTypeScript, as lab/cli/lblab.mjs does.
import { runTypeScript } from '../typescript.mjs';
import { keepProcessYoungGeneration } from '../young-generation.mjs';

keepProcessYoungGeneration();

await runTypeScript(new URL('./worker-main.ts', import.meta.url));
