// The election prewarm thread's first module. A worker does not inherit the main thread's way of running TypeScript,
// so it starts its own through runTypeScript, as lab/cli/lblab.mjs does.
import { runTypeScript } from '../../../core/runtime/typescript.mjs';

await runTypeScript(new URL('./election-prewarm-main.ts', import.meta.url));
