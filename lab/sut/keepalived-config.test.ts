import { describe, expect, it } from 'vitest';
import { SutSpecError } from './errors.ts';
import { nodePriority, renderKeepalivedConfig, type KeepalivedSpec } from './keepalived-config.ts';

const spec: KeepalivedSpec = {
  name: 'n1',
  interface: 'eth0',
  priority: 250,
  addresses: ['198.18.100.10', '2001:db8:100::10'],
};

/** The body of the `vrrp_instance <name> { ... }` block. */
function instance(config: string, name: string): string {
  const m = new RegExp(`vrrp_instance ${name} \\{\\n([\\s\\S]*?)\\n\\}`).exec(config);
  if (!m) throw new Error(`no instance ${name} in\n${config}`);
  return m[1]!;
}

describe('renderKeepalivedConfig', () => {
  it('runs VRRPv3, which has sub-second intervals and IPv6', () => {
    expect(renderKeepalivedConfig(spec)).toMatch(/global_defs \{[^}]*vrrp_version 3/);
  });

  it('re-announces when a lower-priority master shows up, so clients come back after a split brain', () => {
    const config = renderKeepalivedConfig(spec);
    expect(config).toMatch(/global_defs \{[^}]*vrrp_garp_lower_prio_repeat [1-9]/);
    expect(config).toMatch(/global_defs \{[^}]*vrrp_higher_prio_send_advert/);
  });

  it('has one instance per family, each with its own router id and only its own addresses', () => {
    const config = renderKeepalivedConfig(spec);
    const v4 = instance(config, 'n1_v4');
    const v6 = instance(config, 'n1_v6');
    expect(v4).toContain('198.18.100.10/32 dev eth0');
    expect(v4).not.toContain('2001:db8');
    expect(v6).toContain('2001:db8:100::10/128 dev eth0');
    expect(v6).not.toContain('198.18');
    const vrid = (body: string) => /virtual_router_id (\d+)/.exec(body)?.[1];
    expect(vrid(v4)).not.toBe(vrid(v6));
  });

  it('leaves out a family without addresses', () => {
    const config = renderKeepalivedConfig({ ...spec, addresses: ['198.18.100.10'] });
    expect(config).toContain('vrrp_instance n1_v4');
    expect(config).not.toContain('n1_v6');
  });

  it('advertises every 100 ms by default, in seconds as keepalived reads them', () => {
    expect(instance(renderKeepalivedConfig(spec), 'n1_v4')).toMatch(/advert_int 0\.10\n/);
    const slow = renderKeepalivedConfig({ ...spec, advertIntervalMs: 1000 });
    expect(instance(slow, 'n1_v4')).toMatch(/advert_int 1\.00\n/);
  });

  it('lets priority elect the master: all start as backup, preemption left on', () => {
    const body = instance(renderKeepalivedConfig(spec), 'n1_v4');
    expect(body).toContain('state BACKUP');
    expect(body).toContain('priority 250');
    expect(body).not.toContain('nopreempt');
  });

  it('refuses what VRRP or keepalived cannot express', () => {
    const bad: Partial<KeepalivedSpec>[] = [
      { priority: 255 },
      { priority: 0 },
      { advertIntervalMs: 105 },
      { advertIntervalMs: 50_000 },
      { addresses: [] },
      { addresses: ['not-an-address'] },
      { vrid: 255 },
      { name: 'N 1' },
      { interface: 'eth0; rm' },
    ];
    for (const b of bad)
      expect(() => renderKeepalivedConfig({ ...spec, ...b }), JSON.stringify(b)).toThrow(SutSpecError);
  });
});

describe('nodePriority', () => {
  it('makes the first node master and gives every node a distinct valid priority', () => {
    const ps = Array.from({ length: 20 }, (_, i) => nodePriority(i, 20));
    expect(new Set(ps).size).toBe(20);
    expect(Math.max(...ps)).toBe(ps[0]);
    for (const p of ps) {
      expect(p).toBeGreaterThanOrEqual(1);
      expect(p).toBeLessThanOrEqual(254);
    }
  });

  it('refuses more nodes than it has priorities for', () => {
    expect(() => nodePriority(0, 21)).toThrow(SutSpecError);
  });
});
