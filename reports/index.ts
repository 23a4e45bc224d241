/** Run results and what is made of them: gates, exit codes, and result.json / report.md / junit.xml. */
export * from './result.ts';
export {
  comparators,
  evaluateGate,
  thresholdText,
  type Comparator,
  type GateCondition,
} from './gate-condition.ts';
export { parseGates, type GateRule, type GatesParse } from './gates.ts';
export { loadGates } from './load-gates.ts';
export { applyGates } from './apply-gates.ts';
export { exitCodeFor } from './exit-code.ts';
export { renderJson } from './json.ts';
export { renderMarkdown } from './markdown.ts';
export { renderJunit } from './junit.ts';
export { ratio } from './compare.ts';
export { writeReports, type ReportFiles } from './write-reports.ts';
