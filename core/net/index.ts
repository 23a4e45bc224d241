export { IpAddress, familyBits, type IpFamily } from './address.ts';
export { Prefix, netmask } from './prefix.ts';
export { AddressRange } from './range.ts';
export { MacAddress } from './mac.ts';
export { AddressParseError } from './errors.ts';
