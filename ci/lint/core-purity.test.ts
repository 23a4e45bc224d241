import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rule lives in eslint.config.js; this proves it bites where it must and nowhere else.
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('core/ purity lint rule', () => {
  it.each([
    ['export const t = Date.now();', 'no-restricted-properties'],
    ['export const t = performance.now();', 'no-restricted-globals'],
    ['export const r = Math.random();', 'no-restricted-properties'],
    ['setTimeout(() => {}, 1);', 'no-restricted-globals'],
    ['setInterval(() => {}, 1);', 'no-restricted-globals'],
    ['globalThis.setTimeout(() => {}, 1);', 'no-restricted-properties'],
    ['export const d = new Date();', 'no-restricted-syntax'],
    ["import { setTimeout as st } from 'node:timers/promises';\nexport { st };", 'no-restricted-imports'],
  ])('rejects %s in core/', async (code, rule) => {
    expect(await ruleIds(code, 'core/bgp/fsm/fsm.ts')).toContain(rule);
  });

  it('allows them in core/runtime and outside core/', async () => {
    const code = 'export const t = Date.now() + Math.random();\nsetTimeout(() => {}, 1);\n';
    expect(await ruleIds(code, 'core/runtime/real-clock.ts')).toEqual([]);
    expect(await ruleIds(code, 'lab/sim/kernel.ts')).toEqual([]);
  });

  it('forbids core/ importing lab/', async () => {
    const code = "import { x } from '../../lab/sim/x.ts';\nexport { x };\n";
    expect(await ruleIds(code, 'core/bgp/x.ts')).toContain('no-restricted-imports');
  });
});
