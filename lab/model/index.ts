/** Lab topologies: YAML files resolved into the model every backend builds. */
export type * from './topology.ts';
export { parseTopology, resolveTopology, type ParseOptions, type TopologyResult } from './parse.ts';
export { readTopology } from './read.ts';
export { generateL2Topology, type GenerateOptions, type GeneratedTopology } from './generate.ts';
export { labRanges } from './lab-ranges.ts';
