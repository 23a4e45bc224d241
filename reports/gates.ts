/**
 * The gates file: release gates as YAML rules, read strictly. A typo in a gates file must not quietly
 * drop a gate, so unknown fields, a missing or doubled comparator and non-numbers are errors that name
 * the file, the document and the field path, as configuration errors do (core/config/issues.ts).
 *
 *   gates:
 *     - scenario: "l2: *"        # glob on scenario names: * any run of characters, ? one character
 *       measurement: outageMs
 *       below: 1000              # or atMost, above, atLeast, equals
 *       sut: lblab               # optional: only this system under test
 *       statistic: p95           # optional, for `--repeat N`: median (default), p95, min or max
 */
import { parseAllDocuments, type YAMLError } from 'yaml';
import { joinPath, type ConfigIssue } from '../core/config/issues.ts';
import { readRegression, type RegressionPolicy } from './baseline/regression-policy.ts';
import { comparators, type GateCondition } from './gate-condition.ts';
import { statistics, type Statistic } from './result.ts';

export interface GateRule extends GateCondition {
  /** Glob on scenario names; every matching rule applies. */
  scenario: string;
  measurement: string;
  /** When set, the rule applies only to scenarios run against this system under test. */
  sut?: string;
  /** Which statistic of a repeated measurement the rule judges; absent: the median. */
  statistic?: Statistic;
}

export type GatesParse =
  { ok: true; rules: GateRule[]; regression?: RegressionPolicy } | { ok: false; errors: ConfigIssue[] };

const ruleFields = ['scenario', 'measurement', 'sut', 'statistic', ...comparators];
const topLevel = ['gates', 'regression'];

/** `file` is the name errors repeat (as the user gave it); `text` its contents. */
export function parseGates(file: string, text: string): GatesParse {
  const errors: ConfigIssue[] = [];
  const error = (path: string, message: string, document = 0) =>
    errors.push({ file, document, path, message });

  const docs = parseAllDocuments(text);
  // Warnings count as errors too: a gates file is small and hand-written, so it should be clean.
  docs.forEach((doc, i) => {
    for (const e of [...doc.errors, ...doc.warnings]) errors.push(yamlIssue(file, i, e));
  });
  if (docs.length > 1) error('', 'a gates file holds one YAML document', 1);
  if (errors.length > 0) return { ok: false, errors };

  let value: unknown;
  try {
    value = docs[0]?.toJS() ?? null;
  } catch (err) {
    // toJS refuses documents that expand aliases without bound ("billion laughs").
    error('', `YAML: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: false, errors };
  }
  const rules = readRules(value, error);
  // The baseline's regression tolerances (optional): their own section, read in baseline/.
  const section = isMapping(value) ? value['regression'] : undefined;
  const regression = section === undefined ? undefined : readRegression(section, error);
  if (errors.length > 0) return { ok: false, errors };
  return regression === undefined ? { ok: true, rules } : { ok: true, rules, regression };
}

type Report = (path: string, message: string) => void;

function readRules(value: unknown, error: Report): GateRule[] {
  if (!isMapping(value)) {
    error('', 'a gates file is a mapping with a `gates` list');
    return [];
  }
  for (const key of Object.keys(value)) {
    if (!topLevel.includes(key))
      error(joinPath('', key), `unknown field (a gates file has ${topLevel.join(' and ')})`);
  }
  const list = value['gates'];
  if (list === undefined) error('gates', 'is required (write `gates: []` for none)');
  else if (!Array.isArray(list)) error('gates', 'must be a list of gates');
  else return list.flatMap((item: unknown, i) => readRule(item, joinPath('gates', i), error) ?? []);
  return [];
}

function readRule(item: unknown, path: string, error: Report): GateRule | undefined {
  if (!isMapping(item)) {
    error(path, 'must be a mapping with scenario, measurement and one comparator');
    return undefined;
  }
  for (const key of Object.keys(item)) {
    if (!ruleFields.includes(key))
      error(joinPath(path, key), `unknown field (a gate has ${ruleFields.join(', ')})`);
  }
  const scenario = readString(item, 'scenario', path, error, 'a glob on scenario names such as "l2: *"');
  const measurement = readString(item, 'measurement', path, error, 'a measurement name such as outageMs');
  const sut = item['sut'] === undefined ? undefined : readString(item, 'sut', path, error, 'such as lblab');
  const statistic = item['statistic'];
  const knownStatistic = statistics.find((s) => s === statistic);
  if (statistic !== undefined && knownStatistic === undefined)
    error(joinPath(path, 'statistic'), `must be one of ${statistics.join(', ')}, not ${describe(statistic)}`);

  const given = comparators.filter((c) => item[c] !== undefined);
  if (given.length === 0) error(path, `needs one comparator: ${comparators.join(', ')}`);
  if (given.length > 1) error(path, `has ${given.join(' and ')}; a gate takes exactly one comparator`);
  for (const c of given) {
    const t = item[c];
    if (typeof t !== 'number') error(joinPath(path, c), `must be a number, not ${describe(t)}`);
    // YAML's .inf and .nan are numbers, but no measurement can be compared with them usefully.
    else if (!Number.isFinite(t)) error(joinPath(path, c), 'must be a finite number');
  }

  // Any error rejects the whole file, so what is returned here only matters when there was none.
  const comparator = given[0];
  const threshold = comparator === undefined ? undefined : item[comparator];
  if (scenario === undefined || measurement === undefined || comparator === undefined) return undefined;
  if (typeof threshold !== 'number') return undefined;
  const rule: GateRule = { scenario, measurement, comparator, threshold };
  if (sut !== undefined) rule.sut = sut;
  if (knownStatistic !== undefined) rule.statistic = knownStatistic;
  return rule;
}

function readString(
  item: Record<string, unknown>,
  key: string,
  path: string,
  error: Report,
  example: string,
): string | undefined {
  const v = item[key];
  const at = joinPath(path, key);
  if (v === undefined) error(at, `is required: ${example}`);
  else if (typeof v !== 'string' || v === '') error(at, `must be a non-empty string: ${example}`);
  else return v;
  return undefined;
}

export function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  return typeof v === 'object' ? 'a mapping' : `a ${typeof v}`;
}

function yamlIssue(file: string, document: number, e: YAMLError): ConfigIssue {
  const message = `YAML: ${(e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`;
  const pos = e.linePos?.[0];
  return pos === undefined
    ? { file, document, path: '', message }
    : { file, document, path: '', message, line: pos.line, column: pos.col };
}
