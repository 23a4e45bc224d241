import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow between full collections in a process that emulates a
 * cluster. The emulator holds every node's state in one heap and its mutator runs smoothly, so V8 picks
 * its largest growing factor, up to 4×: in the 2000-node, 10,000-Service node crash the main heap went
 * from 164 MB after start-up to 636 MB before its next full collection, with 280 MB of it alive, and peak
 * RSS was 0.9 or 1.3 GB from one run to the next, by when that collection came. At 1.5× the peak is
 * 745-781 MB in every run, for about 1.3 s more wall time on average (of 25-29 s): more full
 * collections, each marked mostly on the other core. V8 reads the factor each time it sets a limit, so setting it here, before
 * the lab allocates, covers the whole run.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
