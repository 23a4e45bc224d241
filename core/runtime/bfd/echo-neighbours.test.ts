import { describe, expect, it } from 'vitest';
import { ArpNeighbours, parseArpTable } from './echo-neighbours.ts';

const TABLE = `IP address       HW type     Flags       HW address            Mask     Device
198.18.0.1       0x1         0x2         02:aa:bb:cc:dd:01     *        eth0
198.18.0.3       0x1         0x0         00:00:00:00:00:00     *        eth0
198.18.1.1       0x1         0x6         02:aa:bb:cc:dd:02     *        eth1
garbage
`;

describe('the kernel neighbour table (/proc/net/arp)', () => {
  it('keeps the complete entries (ATF_COM) with their device, drops incomplete ones and garbage', () => {
    expect(parseArpTable(TABLE).map((e) => [e.address, e.mac.toString(), e.device])).toEqual([
      ['198.18.0.1', '02:aa:bb:cc:dd:01', 'eth0'],
      ['198.18.1.1', '02:aa:bb:cc:dd:02', 'eth1'],
    ]);
  });

  it('looks an address up on one interface, as last read', async () => {
    let text = TABLE;
    const n = new ArpNeighbours(() => Promise.resolve(text));
    expect(n.lookup('eth0', '198.18.0.1')).toBeUndefined();
    await n.refresh();
    expect(n.lookup('eth0', '198.18.0.1')?.toString()).toBe('02:aa:bb:cc:dd:01');
    expect(n.lookup('eth1', '198.18.0.1')).toBeUndefined();
    text = TABLE.replace('02:aa:bb:cc:dd:01', '02:aa:bb:cc:dd:09');
    await n.refresh();
    expect(n.lookup('eth0', '198.18.0.1')?.toString()).toBe('02:aa:bb:cc:dd:09');
  });

  it('knows no neighbour when the table cannot be read', async () => {
    const n = new ArpNeighbours(() => Promise.reject(new Error('ENOENT')));
    await n.refresh();
    expect(n.lookup('eth0', '198.18.0.1')).toBeUndefined();
  });
});
