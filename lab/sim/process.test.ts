/** Processes: SIGSTOP defers timers and deliveries, resume replays them in Node's order, SIGKILL ends them. */
import { describe, expect, it } from 'vitest';
import { lan, record, v4 } from './test-support.ts';

function setup() {
  const { net, hosts } = lan(2);
  const [h1, h2] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
  const events = record(net);
  const p = h2.process('speaker');
  const log: string[] = [];
  const sock = p.udp(v4(12), 7946);
  sock.onMessage((payload) => log.push(`msg ${payload[0]} @${net.now()}`));
  const client = h1.udp(v4(11), 7946);
  const send = (n: number) => client.send({ address: v4(12), port: 7946 }, Uint8Array.of(n));
  return { net, h1, h2, p, log, sock, client, send, events };
}

describe('processes', () => {
  it('freeze defers timers and deliveries; resume fires overdue timers first, in due order, then the deliveries', () => {
    const { net, p, log, send } = setup();
    p.clock.setTimer('b', 200, () => log.push(`timer b @${net.now()}`));
    p.clock.setTimer('a', 100, () => log.push(`timer a @${net.now()}`));
    p.clock.setTimer('c', 1000, () => log.push(`timer c @${net.now()}`));
    net.runSync(50);
    p.freeze();
    send(1);
    net.runSync(100);
    send(2);
    net.runSync(350);
    expect(log).toEqual([]);
    p.resume();
    expect(log).toEqual(['timer a @500', 'timer b @500', 'msg 1 @500', 'msg 2 @500']);
    net.runSync(600);
    expect(log.at(-1)).toBe('timer c @1000');
  });

  it('a frozen process sends nothing, while its host’s kernel still answers ARP', () => {
    const { net, h1, p, sock, events } = setup();
    p.freeze();
    sock.send({ address: v4(11), port: 7946 }, Uint8Array.of(9));
    net.runSync(10);
    expect(events.filter((e) => e.kind === 'frame' && e.host === 'h2')).toEqual([]);
    h1.udp('0.0.0.0', 0).send({ address: v4(12), port: 7946 }, Uint8Array.of(1));
    net.runSync(10);
    expect(h1.neighbour('eth0', v4(12))?.state).toBe('REACHABLE');
  });

  it('holds at most a socket buffer’s worth of deliveries while frozen', () => {
    const { net, p, log, send } = setup();
    send(0);
    net.runSync(1);
    p.freeze();
    for (let i = 0; i < 300; i++) send(i % 256);
    net.runSync(10);
    p.resume();
    expect(log).toHaveLength(1 + 256);
  });

  it('run() handles outside events in order with the deliveries', () => {
    const { net, p, log, send } = setup();
    p.freeze();
    send(1);
    net.runSync(1);
    p.run(() => log.push('config changed'));
    p.resume();
    expect(log).toEqual(['msg 1 @1', 'config changed']);
  });

  it('kill cancels timers, closes sockets, drops what is queued and runs the kill hooks', () => {
    const { net, h2, p, log, send, events } = setup();
    const killed: number[] = [];
    p.onKill(() => killed.push(net.now()));
    p.clock.setTimer('t', 100, () => log.push('timer'));
    p.freeze();
    send(1);
    net.runSync(10);
    p.kill();
    expect(killed).toEqual([10]);
    p.resume();
    p.clock.setTimer('late', 0, () => log.push('late timer'));
    send(2);
    net.runSync(500);
    expect(log).toEqual([]);
    expect(events.some((e) => e.kind === 'packet' && e.reason === 'no-socket')).toBe(true);
    // A restart is a new process with its own sockets, on the same port.
    const restarted = h2.process('speaker');
    expect(restarted).not.toBe(p);
    restarted.udp(v4(12), 7946).onMessage(() => log.push('restarted'));
    send(3);
    net.runSync(1);
    expect(log).toEqual(['restarted']);
  });

  it('a stalled thread waits alone: the other threads of its process run on, and it catches up in order', () => {
    const { net, h2, p, log, send } = setup();
    const worker = p.thread('liveness');
    const wsock = worker.udp(v4(12), 9000);
    wsock.onMessage((payload) => log.push(`worker msg ${payload[0]} @${net.now()}`));
    p.clock.setTimer('main', 100, () => log.push(`main timer @${net.now()}`));
    worker.clock.setTimer('worker', 100, () => log.push(`worker timer @${net.now()}`));
    p.stall(300);
    send(1);
    h2.udp(v4(12), 0).send({ address: v4(12), port: 9000 }, Uint8Array.of(2));
    net.runSync(200);
    // The worker got its datagram on arrival (well under a millisecond) and its timer on time.
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^worker msg 2 @0(\.\d+)?$/);
    expect(log[1]).toBe('worker timer @100');
    net.runSync(200);
    expect(log.slice(2)).toEqual(['main timer @300', 'msg 1 @300']);
  });

  it('SIGSTOP and SIGKILL act on every thread; a stall of one thread is not a SIGCONT of the others', () => {
    const { net, p } = setup();
    const worker = p.thread('liveness');
    const fired: string[] = [];
    worker.clock.setTimer('w', 100, () => fired.push(`w @${net.now()}`));
    p.freeze();
    p.stall(50);
    net.runSync(200);
    expect(fired).toEqual([]);
    p.resume();
    expect(fired).toEqual(['w @200']);
    p.kill();
    expect(worker.state).toBe('killed');
  });
});
