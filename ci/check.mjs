// `npm run check`: the type check, the linter and the formatting check, side by side (each is one
// process on one core: one after another they took 54 s on the 2-core CI machine). Each one's output is
// printed whole when it ends, in this order, and the check fails when any of them does.
import { execa } from 'execa';

const checks = [
  ['tsc', '--noEmit'],
  ['eslint', '.'],
  ['prettier', '--check', '.'],
];

const runs = checks.map(([file, ...args]) =>
  execa(file, args, { preferLocal: true, all: true, reject: false }),
);
let failed = false;
for (const [k, run] of runs.entries()) {
  const r = await run;
  const output = r.all?.trim();
  console.log(`> ${checks[k].join(' ')}${output ? `\n${output}` : ''}`);
  if (r.failed) {
    failed = true;
    console.log(`${checks[k][0]} failed: ${r.shortMessage}`);
  }
}
process.exitCode = failed ? 1 : 0;
