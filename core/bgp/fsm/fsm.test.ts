import { describe, expect, it } from 'vitest';
import { IpAddress } from '../../net/index.ts';
import type { OpenMessage } from '../codec.ts';
import { initialState, step } from './fsm.ts';
import type { FsmAction, FsmEvent, FsmState, SessionConfig } from './types.ts';

const config: SessionConfig = {
  localAs: 64513,
  peerAs: 64512,
  routerId: IpAddress.parse('198.18.0.11'),
  holdTimeSec: 90,
  keepaliveSec: 30,
  connectRetrySec: 5,
  passive: false,
  families: [
    { afi: 1, safi: 1 },
    { afi: 2, safi: 1 },
  ],
};

const peerOpen = (over: Partial<OpenMessage> = {}): OpenMessage => ({
  type: 'open',
  version: 4,
  myAs: 64512,
  holdTimeSec: 9,
  bgpId: IpAddress.parse('198.18.0.1'),
  capabilities: [
    { code: 'multiprotocol', afi: 1, safi: 1 },
    { code: 'four-octet-as', asn: 64512 },
    { code: 'route-refresh' },
  ],
  ...over,
});

/** Runs events from a state; returns the final state and every action, in order. */
function run(events: FsmEvent[], from: FsmState = initialState(config)) {
  let s = from;
  const actions: FsmAction[] = [];
  for (const e of events) {
    const r = step(s, e);
    s = r.state;
    actions.push(...r.actions);
  }
  return { state: s, actions };
}

const toEstablished: FsmEvent[] = [
  { kind: 'start' },
  { kind: 'tcp-connected' },
  { kind: 'message', msg: peerOpen() },
  { kind: 'message', msg: { type: 'keepalive' } },
];

const sent = (actions: FsmAction[]) => actions.flatMap((a) => (a.kind === 'send' ? [a.msg] : []));
const armed = (actions: FsmAction[], timer: string) =>
  actions.flatMap((a) => (a.kind === 'arm' && a.timer === timer ? [a.afterMs] : []));

describe('BGP FSM (RFC 4271 §8)', () => {
  it('goes Idle → Connect → OpenSent → OpenConfirm → Established with a reason at each step', () => {
    const { state, actions } = run(toEstablished);
    expect(state.name).toBe('established');
    const transitions = actions.flatMap((a) => (a.kind === 'transition' ? [`${a.from}→${a.to}`] : []));
    expect(transitions).toEqual([
      'idle→connect',
      'connect→open-sent',
      'open-sent→open-confirm',
      'open-confirm→established',
    ]);
    for (const a of actions) if (a.kind === 'transition') expect(a.reason.length).toBeGreaterThan(5);
    expect(actions.some((a) => a.kind === 'established')).toBe(true);
  });

  it('sends an OPEN with our capabilities, AS_TRANS for a 4-octet AS, then a KEEPALIVE', () => {
    const big = initialState({ ...config, localAs: 4_200_000_001 });
    const { actions } = run(toEstablished.slice(0, 3), big);
    const [open, keepalive] = sent(actions);
    expect(open).toMatchObject({ type: 'open', myAs: 23456, holdTimeSec: 90 });
    expect(open?.type === 'open' && open.capabilities).toContainEqual({
      code: 'four-octet-as',
      asn: 4_200_000_001,
    });
    expect(keepalive).toEqual({ type: 'keepalive' });
  });

  it('negotiates the smaller hold time and keepalives at a third of it', () => {
    const { state, actions } = run(toEstablished);
    expect(state.negotiated).toMatchObject({
      holdTimeSec: 9,
      keepaliveSec: 3,
      fourOctetAs: true,
      peerAs: 64512,
    });
    expect(armed(actions, 'hold').at(-1)).toBe(9000);
    expect(armed(actions, 'keepalive').at(-1)).toBe(3000);
    // RFC 4760 §8: IPv6 was not announced by the peer, so only IPv4 unicast is carried.
    expect(state.negotiated?.families).toEqual([{ afi: 1, safi: 1 }]);
  });

  it('with hold time 0 sends no keepalives and arms no hold timer', () => {
    const { state, actions } = run([
      { kind: 'start' },
      { kind: 'tcp-connected' },
      { kind: 'message', msg: peerOpen({ holdTimeSec: 0 }) },
    ]);
    expect(state.negotiated?.holdTimeSec).toBe(0);
    expect(armed(actions, 'keepalive')).toEqual([]);
    expect(actions.at(-2)).toEqual({ kind: 'disarm', timer: 'hold' });
  });

  it.each([
    ['version 3', peerOpen({ version: 3 }), 1, [0, 4]],
    [
      'the wrong peer AS',
      peerOpen({ myAs: 65000, capabilities: [{ code: 'four-octet-as', asn: 65000 }] }),
      2,
      [],
    ],
    ['BGP identifier 0.0.0.0', peerOpen({ bgpId: IpAddress.parse('0.0.0.0') }), 3, []],
    ['hold time 2 s', peerOpen({ holdTimeSec: 2 }), 6, []],
  ])('refuses an OPEN with %s: NOTIFICATION 2/%i, close, Idle, retry later', (_, open, subcode, data) => {
    const { state, actions } = run([
      { kind: 'start' },
      { kind: 'tcp-connected' },
      { kind: 'message', msg: open },
    ]);
    expect(state.name).toBe('idle');
    const n = sent(actions).at(-1);
    expect(n).toEqual({ type: 'notification', code: 2, subcode, data: Uint8Array.from(data) });
    expect(actions.some((a) => a.kind === 'close')).toBe(true);
    expect(armed(actions, 'idle-hold').length).toBe(1);
  });

  it('takes the real AS from the 4-octet capability when My AS is AS_TRANS (RFC 6793 §4.1)', () => {
    const c = initialState({ ...config, peerAs: 4_200_000_002 });
    const open = peerOpen({ myAs: 23456, capabilities: [{ code: 'four-octet-as', asn: 4_200_000_002 }] });
    const { state } = run([{ kind: 'start' }, { kind: 'tcp-connected' }, { kind: 'message', msg: open }], c);
    expect(state.name).toBe('open-confirm');
    expect(state.negotiated?.peerAs).toBe(4_200_000_002);
  });

  it('dynamic ASN: "external" accepts any other AS, "internal" only ours', () => {
    const ext = run(toEstablished.slice(0, 3), initialState({ ...config, peerAs: 'external' }));
    expect(ext.state.name).toBe('open-confirm');
    const int = run(toEstablished.slice(0, 3), initialState({ ...config, peerAs: 'internal' }));
    expect(int.state.name).toBe('idle');
  });

  it('a hold timer expiry sends NOTIFICATION 4 and goes down', () => {
    const up = run(toEstablished).state;
    const { state, actions } = run([{ kind: 'timer', timer: 'hold' }], up);
    expect(state.name).toBe('idle');
    expect(sent(actions)).toEqual([{ type: 'notification', code: 4, subcode: 0, data: new Uint8Array() }]);
    expect(actions).toContainEqual(expect.objectContaining({ kind: 'down', reason: 'hold timer expired' }));
  });

  it('every UPDATE and KEEPALIVE restarts the hold timer; UPDATEs are delivered', () => {
    const up = run(toEstablished).state;
    const update = { type: 'update' as const, withdrawn: [], attributes: {}, nlri: [] };
    const { actions } = run(
      [
        { kind: 'message', msg: update },
        { kind: 'message', msg: { type: 'keepalive' } },
      ],
      up,
    );
    expect(armed(actions, 'hold')).toEqual([9000, 9000]);
    expect(actions).toContainEqual({ kind: 'deliver', msg: update });
  });

  it('an unexpected message is an FSM error with the state as subcode (RFC 6608)', () => {
    const up = run(toEstablished).state;
    const { actions } = run([{ kind: 'message', msg: peerOpen() }], up);
    expect(sent(actions)).toEqual([{ type: 'notification', code: 5, subcode: 3, data: new Uint8Array() }]);
    const openSent = run(toEstablished.slice(0, 2)).state;
    const r = run([{ kind: 'message', msg: { type: 'keepalive' } }], openSent);
    expect(sent(r.actions)[0]).toMatchObject({ code: 5, subcode: 1 });
  });

  it('a failed connect goes to Active and retries after a back-off that doubles, capped at connect-retry', () => {
    let s = run([{ kind: 'start' }]).state;
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = run(
        [
          { kind: 'tcp-failed', reason: 'refused' },
          { kind: 'timer', timer: 'connect-retry' },
        ],
        s,
      );
      expect(r.actions).toContainEqual({ kind: 'connect' });
      waits.push(armed(r.actions, 'connect-retry')[0]!);
      s = r.state;
    }
    expect(waits).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('passive: waits in Active and never dials', () => {
    const { state, actions } = run(
      [{ kind: 'start' }, { kind: 'timer', timer: 'connect-retry' }],
      initialState({ ...config, passive: true }),
    );
    expect(state.name).toBe('active');
    expect(actions.some((a) => a.kind === 'connect')).toBe(false);
  });

  it('stop: Cease/Administrative Shutdown, or Hard Reset when both sides set the N bit (RFC 8538)', () => {
    const plain = run([...toEstablished, { kind: 'stop', reason: 'bye', mode: 'shutdown' }]);
    expect(sent(plain.actions).at(-1)).toMatchObject({ code: 6, subcode: 2 });
    const gr = { restartTimeSec: 120, restarting: false };
    const grOpen = peerOpen({
      capabilities: [
        { code: 'four-octet-as', asn: 64512 },
        {
          code: 'graceful-restart',
          restarting: false,
          notification: true,
          restartTimeSec: 120,
          families: [],
        },
      ],
    });
    const withN = run(
      [
        { kind: 'start' },
        { kind: 'tcp-connected' },
        { kind: 'message', msg: grOpen },
        { kind: 'message', msg: { type: 'keepalive' } },
        { kind: 'stop', reason: 'bye', mode: 'shutdown' },
      ],
      initialState({ ...config, gracefulRestart: gr }),
    );
    expect(sent(withN.actions).at(-1)).toEqual({
      type: 'notification',
      code: 6,
      subcode: 9,
      data: Uint8Array.from([2]),
    });
  });

  it('restart stop closes without a NOTIFICATION, so the peer keeps our routes (RFC 4724)', () => {
    const { state, actions } = run([...toEstablished, { kind: 'stop', reason: 'upgrade', mode: 'restart' }]);
    expect(state.name).toBe('idle');
    expect(sent(actions).filter((m) => m.type === 'notification')).toEqual([]);
    expect(actions).toContainEqual({ kind: 'close' });
  });

  it('keeps a graceful-restart peer routes when its connection drops, not on its Hard Reset', () => {
    const grOpen = peerOpen({
      capabilities: [
        {
          code: 'graceful-restart',
          restarting: false,
          notification: true,
          restartTimeSec: 60,
          families: [{ afi: 1, safi: 1, forwardingPreserved: true }],
        },
      ],
    });
    const c = initialState({ ...config, gracefulRestart: { restartTimeSec: 120, restarting: false } });
    const upEvents: FsmEvent[] = [
      { kind: 'start' },
      { kind: 'tcp-connected' },
      { kind: 'message', msg: grOpen },
      { kind: 'message', msg: { type: 'keepalive' } },
    ];
    const up = run(upEvents, c).state;
    const dropped = run([{ kind: 'tcp-closed', reason: 'reset' }], up);
    expect(dropped.actions).toContainEqual(expect.objectContaining({ kind: 'down', retainPeerRoutes: true }));
    const hard = run(
      [{ kind: 'message', msg: { type: 'notification', code: 6, subcode: 9, data: new Uint8Array() } }],
      up,
    );
    expect(hard.actions).toContainEqual(expect.objectContaining({ kind: 'down', retainPeerRoutes: false }));
    const soft = run(
      [{ kind: 'message', msg: { type: 'notification', code: 6, subcode: 2, data: new Uint8Array() } }],
      up,
    );
    expect(soft.actions).toContainEqual(expect.objectContaining({ kind: 'down', retainPeerRoutes: true }));
    // BFD down (RFC 5882 §4.3.2): with the peer's C bit clear the failure may be its control plane
    // restarting, so graceful restart keeps its routes (both sides set N); with C set forwarding failed.
    const restartLike = run([{ kind: 'bfd-down', peerControlPlaneIndependent: false }], up);
    expect(restartLike.actions).toContainEqual(
      expect.objectContaining({ kind: 'down', retainPeerRoutes: true }),
    );
    const forwarding = run([{ kind: 'bfd-down', peerControlPlaneIndependent: true }], up);
    expect(forwarding.actions).toContainEqual(
      expect.objectContaining({ kind: 'down', retainPeerRoutes: false }),
    );
    // Without the capability nothing is kept.
    const plain = run([{ kind: 'tcp-closed', reason: 'reset' }], run(toEstablished).state);
    expect(plain.actions).toContainEqual(expect.objectContaining({ kind: 'down', retainPeerRoutes: false }));
  });

  it('BFD down and max-prefix end the session with the RFC 9384 and RFC 4486 Cease subcodes', () => {
    const up = run(toEstablished).state;
    expect(sent(run([{ kind: 'bfd-down', peerControlPlaneIndependent: false }], up).actions)).toEqual([
      { type: 'notification', code: 6, subcode: 10, data: new Uint8Array() },
    ]);
    expect(sent(run([{ kind: 'max-prefix', limit: 10 }], up).actions)[0]).toMatchObject({
      code: 6,
      subcode: 1,
    });
  });

  it('an idle session takes a connection the peer opens, and restarts itself after idle-hold', () => {
    const down = run([...toEstablished, { kind: 'timer', timer: 'hold' }]).state;
    expect(run([{ kind: 'tcp-connected' }], down).state.name).toBe('open-sent');
    const again = run([{ kind: 'timer', timer: 'idle-hold' }], down);
    expect(again.state.name).toBe('connect');
    expect(again.actions).toContainEqual({ kind: 'connect' });
  });
});
