import { Counter, Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parseExposition } from './prometheus-text.test-support.ts';
import { renderInSlices } from './render.ts';

describe('renderInSlices', () => {
  it('writes a family exactly as prom-client does, escapes included, in slices of 2000 series', async () => {
    const registry = new Registry();
    const g = new Gauge({
      name: 'g',
      help: 'help with a \\ and a\nnewline',
      labelNames: ['service', 'ip'],
      registers: [registry],
    });
    for (let k = 0; k < 5000; k++) g.set({ service: `ns/svc-${k}`, ip: `198.18.${k >> 8}.${k & 255}` }, k);
    g.set({ service: 'a "quoted" \\ and\nnewline', ip: '2001:db8::1' }, Infinity);
    const c = new Counter({ name: 'c_total', help: 'a counter', registers: [registry] });
    c.inc(3);
    let turns = 0;
    const mine = await renderInSlices(g, async () => void turns++);
    expect(mine).toBe(await registry.getSingleMetricAsString('g'));
    expect(turns).toBe(2);
    expect(await renderInSlices(c, async () => undefined)).toBe(
      await registry.getSingleMetricAsString('c_total'),
    );
    const parsed = parseExposition(`${mine}\n`).get('g');
    expect(parsed?.samples).toHaveLength(5001);
    expect(parsed?.samples.at(-1)).toEqual({
      labels: { service: 'a "quoted" \\ and\nnewline', ip: '2001:db8::1' },
      value: Infinity,
    });
  });

  it('writes NaN as the format spells it (prom-client writes "Nan")', async () => {
    const g = new Gauge({ name: 'n', help: 'h', registers: [] });
    g.set(NaN);
    expect(await renderInSlices(g, async () => undefined)).toBe('# HELP n h\n# TYPE n gauge\nn NaN');
  });
});
