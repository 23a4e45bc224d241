import { describe, expect, it } from 'vitest';
import { Diagnostic } from '../codec.ts';
import { transitionOnReceive } from './transitions.ts';

describe('the RFC 5880 §6.8.6 state table', () => {
  it('runs the three-way handshake: Down → Init on Down, Init → Up on Init or Up, Down → Up on Init', () => {
    expect(transitionOnReceive('down', 'down', 0)?.to).toBe('init');
    expect(transitionOnReceive('down', 'init', 0)?.to).toBe('up');
    expect(transitionOnReceive('init', 'init', 0)?.to).toBe('up');
    expect(transitionOnReceive('init', 'up', 0)?.to).toBe('up');
  });

  it('does not come Up on a stale Up, nor leave Init on the peer still being Down', () => {
    expect(transitionOnReceive('down', 'up', 0)).toBeUndefined();
    expect(transitionOnReceive('init', 'down', 0)).toBeUndefined();
    expect(transitionOnReceive('up', 'init', 0)).toBeUndefined();
    expect(transitionOnReceive('up', 'up', 0)).toBeUndefined();
  });

  it('goes Down with diagnostic 3 when the peer says Down, naming the peer’s own diagnostic', () => {
    const t = transitionOnReceive('up', 'down', Diagnostic.controlDetectionTimeExpired);
    expect(t).toMatchObject({ to: 'down', diagnostic: Diagnostic.neighborSignaledSessionDown });
    expect(t?.reason).toContain('control detection time expired');
  });

  it('goes Down with diagnostic 3 on the peer’s AdminDown from Init or Up, and stays Down otherwise', () => {
    for (const local of ['init', 'up'] as const) {
      const t = transitionOnReceive(local, 'admin-down', Diagnostic.administrativelyDown);
      expect(t).toMatchObject({ to: 'down', diagnostic: Diagnostic.neighborSignaledSessionDown });
      expect(t?.reason).toContain('administratively down');
    }
    expect(transitionOnReceive('down', 'admin-down', Diagnostic.administrativelyDown)).toBeUndefined();
  });
});
