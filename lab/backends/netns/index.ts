export { CommandError, sh } from './command.ts';
export { NetnsLab, type Segment } from './lab.ts';
export { Netns } from './namespace.ts';
export { labPrefix, namespaceName, runIdOf } from './names.ts';
export { labNamespaces, sweepLeftovers, type SweepResult } from './sweep.ts';
