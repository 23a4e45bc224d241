import { describe, expect, it } from 'vitest';
import { BfdEchoAcceptLocalError } from './echo-errors.ts';
import { AfPacketEchoNetwork } from './echo-network.ts';

describe('AfPacketEchoNetwork', () => {
  it('refuses echo mode where the kernel would drop our looped echoes (accept_local=0), saying which sysctl', async () => {
    const opened: string[] = [];
    const net = new AfPacketEchoNetwork({
      interfaceOf: () => 'eth0',
      acceptsLocal: async () => false,
      openPort: (name) => {
        opened.push(name);
        throw new Error('not reached');
      },
    });
    const open = net.open({ localAddress: '198.18.0.11', peerAddress: '198.18.0.1' });
    await expect(open).rejects.toBeInstanceOf(BfdEchoAcceptLocalError);
    await expect(open).rejects.toThrow('net.ipv4.conf.eth0.accept_local=1');
    expect(opened).toEqual([]);
    await net.close();
  });
});
