import { describe, expect, it } from 'vitest';
import { MacAddress } from '../../net/index.ts';
import { WireEncodeError } from './errors.ts';
import {
  type NdpOption,
  decodeNdpOptions,
  encodeNdpOptions,
  sourceLinkLayerAddress,
  targetLinkLayerAddress,
} from './ndp-options.ts';
import { catchWireError, hex } from './test-support.ts';

const MAC1 = MacAddress.parse('02:00:00:00:00:01');
const MAC2 = MacAddress.parse('02:00:00:00:00:02');

describe('NDP options (RFC 4861 §4.6)', () => {
  it('decodes source and target link-layer addresses and keeps others opaque, in order', () => {
    // SLLA, an MTU option (type 5, RFC 4861 §4.6.4), a nonce (type 14, RFC 3971) of 16 bytes, TLLA.
    const bytes = hex(`
      01 01 02 00 00 00 00 01
      05 01 00 00 00 00 05 dc
      0e 02 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e
      02 01 02 00 00 00 00 02`);
    const options = decodeNdpOptions(bytes);
    expect(options).toEqual([
      { kind: 'source-lla', mac: MAC1 },
      { kind: 'opaque', type: 5, bytes: hex('00 00 00 00 05 dc') },
      { kind: 'opaque', type: 14, bytes: hex('01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e') },
      { kind: 'target-lla', mac: MAC2 },
    ]);
    expect(encodeNdpOptions(options)).toEqual(bytes);
    expect(sourceLinkLayerAddress(options)).toEqual(MAC1);
    expect(targetLinkLayerAddress(options)).toEqual(MAC2);
  });

  it('an empty area has no options; lookups return undefined', () => {
    expect(decodeNdpOptions(new Uint8Array())).toEqual([]);
    expect(sourceLinkLayerAddress([])).toBeUndefined();
    expect(targetLinkLayerAddress([])).toBeUndefined();
  });

  it('the first of duplicate link-layer options wins', () => {
    const options = decodeNdpOptions(hex('01 01 02 00 00 00 00 01 01 01 02 00 00 00 00 02'));
    expect(sourceLinkLayerAddress(options)).toEqual(MAC1);
  });

  it('length zero is refused (RFC 4861 §4.6: MUST silently discard)', () => {
    const e = catchWireError(() =>
      decodeNdpOptions(hex('01 01 02 00 00 00 00 01 05 00 00 00 00 00 00 00'), 64),
    );
    expect([e.reason, e.offset, e.rule]).toEqual(['option-length-zero', 64 + 9, 'RFC 4861 §4.6']);
  });

  it('an option running past the end, or a lone byte, is truncated', () => {
    expect(catchWireError(() => decodeNdpOptions(hex('05 02 00 00 00 00 00 00'))).reason).toBe('truncated');
    expect(catchWireError(() => decodeNdpOptions(hex('01 01 02 00 00 00 00 01 05'))).offset).toBe(8);
  });

  it('a link-layer address option that is not 8 bytes is refused (RFC 2464 §6)', () => {
    const e = catchWireError(() => decodeNdpOptions(hex(`02 02 02 00 00 00 00 01 ${'00'.repeat(8)}`)));
    expect([e.reason, e.rule]).toEqual(['bad-address-length', 'RFC 2464 §6']);
  });

  it('refuses options it could not write or read back', () => {
    const bad: NdpOption[] = [
      { kind: 'opaque', type: 5, bytes: new Uint8Array(5) },
      { kind: 'opaque', type: 5, bytes: new Uint8Array(255 * 8 - 2 + 8) },
      { kind: 'opaque', type: 1, bytes: new Uint8Array(6) },
      { kind: 'opaque', type: 256, bytes: new Uint8Array(6) },
    ];
    for (const o of bad) expect(() => encodeNdpOptions([o])).toThrow(WireEncodeError);
    expect(encodeNdpOptions([{ kind: 'opaque', type: 200, bytes: new Uint8Array(255 * 8 - 2) }]).length).toBe(
      2040,
    );
  });
});
