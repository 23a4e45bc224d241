// BFD authentication (RFC 5880 §6.7) on a BFDProfile, set by lblab's bfd.lblab.io/auth-* annotations.
import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.ts';
import type { LoadResult } from './load.ts';
import {
  annotated,
  bfdProfile,
  errors,
  load,
  peer,
  secret,
  testFile,
  valid,
  warnings,
} from './test-support.ts';

const typeKey = 'bfd.lblab.io/auth-type';
const keyIdKey = 'bfd.lblab.io/auth-key-id';
const secretKey = 'bfd.lblab.io/auth-secret';
const at = (key: string) => `metadata.annotations[${JSON.stringify(key)}]`;

const keySecret = (password: string, name = 'bfdkey') =>
  secret(name, 'kubernetes.io/basic-auth', { stringData: { password } });
const profile = (annotations: Record<string, unknown>) => annotated(bfdProfile('p'), annotations);
const authed = (type: string, extra: Record<string, unknown> = {}) =>
  profile({ [typeKey]: type, [secretKey]: 'bfdkey', ...extra });
const authOf = (result: LoadResult) => valid(result).bfdProfiles[0]?.auth;
const bytes = (key: Uint8Array | undefined) => (key === undefined ? undefined : Array.from(key));

describe('BFDProfile authentication annotations', () => {
  it('resolves type, key ID (default 1), the Secret and its password as UTF-8 octets', () => {
    const auth = authOf(load([keySecret('k€y'), authed('keyed-sha1')]));
    expect(auth).toMatchObject({
      type: 'keyed-sha1',
      keyId: 1,
      secret: { name: 'bfdkey', namespace: 'metallb-system' },
    });
    // "€" is three octets in UTF-8: the key is bytes, not characters.
    expect(bytes(auth?.key)).toEqual([0x6b, 0xe2, 0x82, 0xac, 0x79]);
  });

  it('reads the password from base64 data as well, and takes any key ID 0..255', () => {
    const fromData = secret('bfdkey', 'kubernetes.io/basic-auth', { data: { password: btoa('s3cret') } });
    for (const keyId of ['0', '255']) {
      const auth = authOf(load([fromData, authed('meticulous-keyed-md5', { [keyIdKey]: keyId })]));
      expect(auth?.keyId).toBe(Number(keyId));
      expect(new TextDecoder().decode(auth?.key)).toBe('s3cret');
    }
  });

  it('leaves auth unset without annotations, and ignores annotations of other prefixes', () => {
    const result = load([profile({ 'example.com/owner': 'team-a' })]);
    expect(authOf(result)).toBeUndefined();
    expect(warnings(result)).toEqual([]);
  });

  it.each([
    ['simple-password', 16, '§4.2.2'],
    ['keyed-md5', 16, '§4.2.3'],
    ['meticulous-keyed-md5', 16, '§4.2.3'],
    ['keyed-sha1', 20, '§4.2.4'],
    ['meticulous-keyed-sha1', 20, '§4.2.4'],
  ])('%s takes keys of 1 to %i octets and refuses longer or empty ones', (type, octets, section) => {
    expect(authOf(load([keySecret('k'), authed(type)]))?.key).toHaveLength(1);
    expect(authOf(load([keySecret('k'.repeat(octets)), authed(type)]))?.key).toHaveLength(octets);
    const refused = (length: number) =>
      `document 1: ${at(secretKey)}: the password in Secret "bfdkey" is ${length} octets; a ${type} key is 1 to ${octets} octets (RFC 5880 ${section})`;
    expect(errors(load([keySecret('k'.repeat(octets + 1)), authed(type)]))).toEqual([refused(octets + 1)]);
    expect(errors(load([keySecret(''), authed(type)]))).toEqual([refused(0)]);
  });

  it('counts the key in octets: 8 two-octet characters fit a simple password, 9 do not', () => {
    expect(authOf(load([keySecret('é'.repeat(8)), authed('simple-password')]))?.key).toHaveLength(16);
    expect(errors(load([keySecret('é'.repeat(9)), authed('simple-password')]))).toHaveLength(1);
  });

  it('refuses a type without a Secret and a Secret without a type, at the annotation that is set', () => {
    expect(errors(load([profile({ [typeKey]: 'keyed-md5' })]))).toEqual([
      `document 0: ${at(typeKey)}: ${secretKey} must be set as well`,
    ]);
    expect(errors(load([keySecret('k'), profile({ [secretKey]: 'bfdkey' })]))).toEqual([
      `document 1: ${at(secretKey)}: ${typeKey} must be set as well`,
    ]);
  });

  it('refuses an unknown type, naming the annotation and the types there are', () => {
    expect(errors(load([keySecret('k'), authed('hmac-sha256')]))).toEqual([
      `document 1: ${at(typeKey)}: "hmac-sha256" is not an authentication type: use one of simple-password, keyed-md5, meticulous-keyed-md5, keyed-sha1, meticulous-keyed-sha1`,
    ]);
  });

  it.each(['256', '-1', 'one', '', '1.5', '0x10'])('refuses key ID %j', (keyId) => {
    expect(errors(load([keySecret('k'), authed('keyed-md5', { [keyIdKey]: keyId })]))).toEqual([
      `document 1: ${at(keyIdKey)}: ${JSON.stringify(keyId)} is not a key ID: use an integer 0..255`,
    ]);
  });

  it('refuses an unquoted key ID, as Kubernetes does: annotation values are strings', () => {
    expect(errors(load([keySecret('k'), authed('keyed-md5', { [keyIdKey]: 7 })]))).toEqual([
      `document 1: ${at(keyIdKey)}: expected a string, got a number (7)`,
    ]);
  });

  it('refuses an empty Secret name', () => {
    expect(errors(load([profile({ [typeKey]: 'keyed-md5', [secretKey]: '' })]))).toEqual([
      `document 0: ${at(secretKey)}: must name a Secret`,
    ]);
  });

  it('warns about unknown bfd.lblab.io/ annotations and about a key ID without a type', () => {
    const result = load([profile({ 'bfd.lblab.io/auth-tpye': 'keyed-md5', [keyIdKey]: '3' })]);
    expect(authOf(result)).toBeUndefined();
    expect(warnings(result)).toEqual([
      `document 0: ${at('bfd.lblab.io/auth-tpye')}: unknown annotation; lblab reads ${typeKey}, ${keyIdKey}, ${secretKey}`,
      `document 0: ${at(keyIdKey)}: has no effect unless ${typeKey} is set`,
    ]);
  });

  it('says which profile and annotation a Secret problem is at', () => {
    const result = load([bfdProfile('other'), authed('keyed-md5')]);
    expect(result.ok ? [] : result.errors.map(formatIssue)).toEqual([
      `${testFile}: document 1 (BFDProfile "p"): ${at(secretKey)}: no Secret "bfdkey" is defined in namespace "metallb-system"`,
    ]);
  });

  it.each([
    [
      'of another type',
      secret('bfdkey', 'Opaque', { stringData: { password: 'x' } }),
      'Secret "bfdkey" has type "Opaque"; it must be kubernetes.io/basic-auth',
    ],
    [
      'without a password',
      secret('bfdkey', 'kubernetes.io/basic-auth', { stringData: { username: 'u' } }),
      'Secret "bfdkey" has no "password" key',
    ],
  ])('refuses a Secret %s with the message a BGPPeer gets for it', (_desc, s, message) => {
    const result = load([
      s,
      authed('keyed-md5'),
      peer('peer1', { myASN: 42, peerASN: 42, peerAddress: '1.2.3.4', passwordSecret: { name: 'bfdkey' } }),
    ]);
    expect(errors(result)).toEqual([
      `document 1: ${at(secretKey)}: ${message}`,
      `document 2: spec.passwordSecret.name: ${message}`,
    ]);
  });

  it('a Secret that failed to parse is reported once, not again at the profile', () => {
    const broken = secret('bfdkey', 'kubernetes.io/basic-auth', { data: { password: 'not base64!' } });
    expect(errors(load([broken, authed('keyed-md5')]))).toEqual([
      'document 0: data.password: is not base64-encoded UTF-8 text',
    ]);
  });

  it('a profile with bad annotations is not also "no BFDProfile" to the peers that use it', () => {
    const result = load([
      authed('md5'),
      peer('peer1', { myASN: 42, peerASN: 42, peerAddress: '1.2.3.4', bfdProfile: 'p' }),
    ]);
    expect(errors(result)).toHaveLength(1);
    expect(errors(result)[0]).toContain(`document 0: ${at(typeKey)}`);
  });
});
