// The chart thread's first module. A worker does not inherit the main thread's way of running TypeScript,
// so it starts its own through runTypeScript, as lab/cli/lblab.mjs does. Requests sent meanwhile wait in
// the port until chart-thread.ts listens.
import { runTypeScript } from '../../core/runtime/typescript.mjs';

await runTypeScript(new URL('./chart-thread.ts', import.meta.url));
