/** MetalLB configuration resources: parsing, defaulting and validation into the model the agents read. */
export type * from './model.ts';
export { loadConfig, loadObjects, defaultNamespace, type LoadOptions, type LoadResult } from './load.ts';
export type { ConfigFile } from './documents.ts';
export { objectLabel, labelled, type ConfigObject } from './objects.ts';
export type { NodeLabels } from './checks/node-overlap.ts';
export { formatIssue, type ConfigIssue } from './issues.ts';
export { readConfigFiles, ConfigReadError } from './read-files.ts';
export { parseGoDuration } from './durations.ts';
export { parseCommunity, formatCommunity } from './communities.ts';
export { selectedPools } from './checks/advertisement-pools.ts';
