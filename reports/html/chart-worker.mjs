// The chart thread (reports/html/vega-svg.ts): vega-lite compiles and vega draws here, so loading the
// two libraries (most of half a second) overlaps the scenarios, and drawing overlaps the rest of the
// report, on the main thread. Plain JavaScript: it needs no TypeScript loader, which costs a thread more.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

// Below the scenarios' thread: on Linux a thread's nice value is its own (pid 0 is the calling thread).
setPriority(0, 10);

const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);

// Requests sent while the libraries loaded wait in the port until this listener starts it.
parentPort.on('message', async ({ id, spec }) => {
  try {
    const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
    try {
      parentPort.postMessage({ id, svg: await view.toSVG() });
    } finally {
      view.finalize();
    }
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
