/**
 * The scenario DSL: a scenario is a named story over a running lab, told in steps, with faults,
 * bounded checks and measurements. Gates in the scenario are the author's expectations; the release
 * gates file adds the project's.
 */
import type { Capability } from './backend.ts';
import type { ScenarioLab } from './scenario-lab.ts';

export interface ScenarioOptions {
  /** Capabilities the scenario cannot run without. */
  needs?: Capability[];
  /** Topology file, relative to the repository root; default: the run's topology. */
  topology?: string;
  /** System under test (default "lblab"). */
  sut?: string;
}

export interface Scenario {
  name: string;
  needs: Capability[];
  topology?: string;
  sut: string;
  run: (lab: ScenarioLab) => Promise<void>;
}

export function scenario(
  name: string,
  options: ScenarioOptions,
  run: (lab: ScenarioLab) => Promise<void>,
): Scenario {
  return {
    name,
    needs: options.needs ?? [],
    ...(options.topology !== undefined && { topology: options.topology }),
    sut: options.sut ?? 'lblab',
    run,
  };
}
