import { describe, expect, it } from 'vitest';
import { UdpPort } from './udp-port.ts';

describe('UdpPort', () => {
  it('exchanges datagrams on loopback and reports the sender', async () => {
    const a = await UdpPort.bind('127.0.0.1', 0);
    const b = await UdpPort.bind('127.0.0.1', 0);
    try {
      const got = new Promise<[string, number]>((resolve) =>
        b.onMessage((p, from) => resolve([Buffer.from(p).toString(), from.port])),
      );
      a.send(b.local, Buffer.from('hello'));
      expect(await got).toEqual(['hello', a.local.port]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('refuses to bind an address this host does not have', async () => {
    await expect(UdpPort.bind('198.18.255.254', 0)).rejects.toThrowError(/EADDRNOTAVAIL/);
  });
});
