/**
 * The chart thread (vega-svg.ts): vega-lite compiles and vega draws here, so loading the two libraries
 * overlaps the scenarios, and drawing overlaps the rest of the report, on the main thread. Its bundle
 * carries both libraries (core/runtime/typescript.mjs), which load as one module.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

// Below the scenarios' thread: on Linux a thread's nice value is its own (pid 0 is the calling thread).
setPriority(0, 10);

const port = parentPort!;
port.on('message', async ({ id, spec }: { id: number; spec: TopLevelSpec }) => {
  try {
    const view = new View(parse(compile(spec).spec), { renderer: 'none' });
    try {
      port.postMessage({ id, svg: await view.toSVG() });
    } finally {
      view.finalize();
    }
  } catch (err) {
    port.postMessage({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
