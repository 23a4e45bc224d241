import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpAddress } from '../../net/index.ts';
import { TcpOptionError, connectTcp, listenTcp } from './index.ts';
import { MD5_KEY_MAX_BYTES, checkConnectOptions, checkListenOptions } from './options.ts';

const base = { host: '198.18.0.2', port: 179 };

/** The TcpOptionError that `f` throws, so a test can check which field it names. */
function optionError(f: () => unknown): TcpOptionError {
  try {
    f();
  } catch (e) {
    if (e instanceof TcpOptionError) return e;
    throw e;
  }
  throw new Error('no TcpOptionError was thrown');
}

describe('connectTcp options', () => {
  it('takes an address as text or as an IpAddress, and leaves unset options at 0', () => {
    const plan = checkConnectOptions({ host: IpAddress.parse('2001:db8::2'), port: 179 });
    expect(plan.host.toString()).toBe('2001:db8::2');
    expect(checkConnectOptions(base)).toMatchObject({ ttl: 0, minTtl: 0, md5Key: undefined });
  });

  it('refuses a host name: a TCP-MD5 key belongs to an address', async () => {
    await expect(connectTcp({ ...base, host: 'router.example' })).rejects.toMatchObject({
      code: 'TCP_OPTION',
      field: 'host',
      message: expect.stringContaining('host names are not resolved'),
    });
  });

  it.each([0, 65536, 1.5, Number.NaN])('refuses port %s', (port) => {
    expect(optionError(() => checkConnectOptions({ ...base, port })).field).toBe('port');
  });

  it.each([
    ['ttl', 0],
    ['ttl', 256],
    ['ttl', 1.5],
    ['minTtl', 0],
    ['minTtl', 256],
  ])('refuses %s %s (a TTL is 1 to 255)', (field, value) => {
    expect(optionError(() => checkConnectOptions({ ...base, [field]: value })).field).toBe(field);
  });

  it('passes TTL 1 and GTSM 255 through', () => {
    expect(checkConnectOptions({ ...base, ttl: 1, minTtl: 255 })).toMatchObject({ ttl: 1, minTtl: 255 });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])('refuses timeoutMs %s', (timeoutMs) => {
    expect(optionError(() => checkConnectOptions({ ...base, timeoutMs })).field).toBe('timeoutMs');
  });

  it('refuses a source address of the other family', () => {
    const e = optionError(() => checkConnectOptions({ ...base, localAddress: '2001:db8::1' }));
    expect(e.field).toBe('localAddress');
    expect(e.message).toContain('IPv6');
  });

  it('keys TCP-MD5 with the UTF-8 bytes of the password', () => {
    expect(checkConnectOptions({ ...base, md5Password: 'bgp€' }).md5Key).toEqual(
      new TextEncoder().encode('bgp€'),
    );
  });

  it('refuses passwords longer than 80 bytes, counting bytes rather than characters', () => {
    expect(checkConnectOptions({ ...base, md5Password: 'x'.repeat(80) }).md5Key).toHaveLength(80);
    // 27 characters, 81 bytes.
    const e = optionError(() => checkConnectOptions({ ...base, md5Password: '€'.repeat(27) }));
    expect(e.field).toBe('md5Password');
    expect(e.message).toMatch(/81 bytes.*at most 80 bytes.*TCP_MD5SIG_MAXKEYLEN/);
  });

  it('refuses an empty password rather than connecting without TCP-MD5', () => {
    expect(optionError(() => checkConnectOptions({ ...base, md5Password: '' })).message).toContain('empty');
  });

  it('accepts exactly the passwords of 1 to 80 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (password) => {
        const bytes = new TextEncoder().encode(password).length;
        const ok = bytes >= 1 && bytes <= MD5_KEY_MAX_BYTES;
        let accepted: boolean;
        try {
          accepted = checkConnectOptions({ ...base, md5Password: password }).md5Key?.length === bytes;
        } catch (e) {
          if (!(e instanceof TcpOptionError)) throw e;
          accepted = false;
        }
        expect(accepted).toBe(ok);
      }),
    );
  });
});

describe('listenTcp options', () => {
  it('takes port 0 (the kernel picks one) and one password per peer', () => {
    const plan = checkListenOptions({
      host: '::',
      port: 0,
      passwords: new Map([
        ['2001:db8::2', 'a'],
        ['198.18.0.2', 'b'],
      ]),
    });
    expect(plan.keys.map((k) => [k.peer.toString(), new TextDecoder().decode(k.key)])).toEqual([
      ['2001:db8::2', 'a'],
      ['198.18.0.2', 'b'],
    ]);
  });

  it('refuses an IPv6 peer on an IPv4 listener', async () => {
    await expect(
      listenTcp({ host: '198.18.0.1', port: 0, passwords: new Map([['2001:db8::2', 'x']]) }),
    ).rejects.toMatchObject({ code: 'TCP_OPTION', message: expect.stringContaining('IPv6 peer') });
  });

  it('names the peer whose password is too long', () => {
    const e = optionError(() =>
      checkListenOptions({
        host: '0.0.0.0',
        port: 179,
        passwords: new Map([['198.18.0.2', 'p'.repeat(81)]]),
      }),
    );
    expect(e.field).toBe('passwords["198.18.0.2"]');
  });

  it('refuses a peer that is not an address, and a bad port or TTL', () => {
    const listen = { host: '0.0.0.0', port: 179 };
    expect(
      optionError(() => checkListenOptions({ ...listen, passwords: new Map([['r1', 'x']]) })).field,
    ).toBe('peer "r1"');
    expect(optionError(() => checkListenOptions({ ...listen, port: -1 })).field).toBe('port');
    expect(optionError(() => checkListenOptions({ ...listen, minTtl: 300 })).field).toBe('minTtl');
    expect(optionError(() => checkListenOptions({ ...listen, host: 'localhost' })).field).toBe('host');
  });
});
