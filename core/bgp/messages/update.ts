import type { Prefix } from '../../net/index.ts';
import { ATTR_AS_PATH } from '../attributes/as-path.ts';
import { ATTR_NEXT_HOP } from '../attributes/next-hop.ts';
import { ATTR_ORIGIN } from '../attributes/origin.ts';
import {
  decodePathAttributes,
  encodePathAttributes,
  type PathAttributes,
} from '../attributes/path-attributes.ts';
import { BgpWireError, ErrorCode, UpdateErrorSubcode } from '../wire-error.ts';
import { UINT16_MAX, Writer } from './bytes.ts';
import type { CodecContext } from './context.ts';
import { decodePrefixes, encodePrefixes } from './nlri.ts';

// RFC 4271 §4.3 UPDATE, after the header:
//   Withdrawn Routes Length (2) | Withdrawn Routes | Total Path Attribute Length (2) | Path Attributes
//   | Network Layer Reachability Information (the rest)

export interface UpdateMessage {
  type: 'update';
  /** IPv4 prefixes; other families travel in attributes.mpUnreach. */
  withdrawn: Prefix[];
  attributes: PathAttributes;
  /** IPv4 prefixes; other families travel in attributes.mpReach. */
  nlri: Prefix[];
  /**
   * RFC 7606: set by the decoder when the UPDATE is to be treated as a withdrawal of all its NLRI
   * (incl. MP_REACH ones) — the session stays up.
   */
  treatAsWithdraw?: BgpWireError;
  /** RFC 7606 attribute-discard errors: the attribute was dropped, the rest of the UPDATE stands. */
  discarded?: BgpWireError[];
}

function sessionReset(message: string, subcode: number): BgpWireError {
  return new BgpWireError(message, ErrorCode.updateMessage, subcode, new Uint8Array(0), 'session-reset');
}

/** Decodes an UPDATE body; throws BgpWireError for session-reset errors, returns RFC 7606 ones as data. */
export function decodeUpdate(body: Uint8Array, ctx: CodecContext): UpdateMessage {
  // The header check guarantees the two length fields' minimum of 4 octets (RFC 4271 §6.1, length 23).
  const withdrawnLength = (body[0]! << 8) | body[1]!;
  // RFC 4271 §6.3: Withdrawn Routes Length + Total Attribute Length + 23 above the message length →
  // Malformed Attribute List. RFC 7606 §3 keeps this a session reset: the fields cannot be located.
  if (2 + withdrawnLength + 2 > body.length) {
    throw sessionReset(
      `Withdrawn Routes Length ${withdrawnLength} overruns the message`,
      UpdateErrorSubcode.malformedAttributeList,
    );
  }
  const attributesAt = 2 + withdrawnLength + 2;
  const attributesLength = (body[attributesAt - 2]! << 8) | body[attributesAt - 1]!;
  if (attributesAt + attributesLength > body.length) {
    throw sessionReset(
      `Total Path Attribute Length ${attributesLength} overruns the message`,
      UpdateErrorSubcode.malformedAttributeList,
    );
  }
  // RFC 7606 §3 and §5.3: the Withdrawn Routes field is checked like the NLRI field; a syntax error in
  // either leaves no way to know which routes are meant → session reset, Invalid Network Field.
  const invalidField = (field: string) => (why: string) =>
    sessionReset(`${field}: ${why}`, UpdateErrorSubcode.invalidNetworkField);
  const withdrawn = decodePrefixes(
    body.subarray(2, 2 + withdrawnLength),
    4,
    invalidField('withdrawn routes'),
  );
  const decoded = decodePathAttributes(body.subarray(attributesAt, attributesAt + attributesLength), ctx);
  const nlri = decodePrefixes(body.subarray(attributesAt + attributesLength), 4, invalidField('NLRI'));
  const { attributes, present } = decoded;

  const faults = decoded.faults.map(({ type, error }) =>
    // RFC 4760 §3: without NLRI in its own field, an UPDATE's NEXT_HOP is ignored, so a malformed one
    // costs only the attribute.
    type === ATTR_NEXT_HOP && nlri.length === 0 && error.handling === 'treat-as-withdraw'
      ? new BgpWireError(error.message, error.errorCode, error.subcode, error.data, 'attribute-discard')
      : error,
  );
  // RFC 7606 §3: a missing well-known mandatory attribute → treat-as-withdraw. They are mandatory only
  // when the UPDATE carries NLRI (RFC 7606 §5.2, RFC 4724 §2); NEXT_HOP only for NLRI in the NLRI
  // field (RFC 4760 §3). RFC 4271 §6.3: Missing Well-known Attribute, Data = the missing type code.
  const reaches = nlri.length > 0 || (attributes.mpReach?.nlri.length ?? 0) > 0;
  const mandatory = reaches ? [ATTR_ORIGIN, ATTR_AS_PATH, ...(nlri.length > 0 ? [ATTR_NEXT_HOP] : [])] : [];
  for (const type of mandatory) {
    if (present.has(type)) continue;
    faults.push(
      new BgpWireError(
        `well-known mandatory attribute ${type} is missing`,
        ErrorCode.updateMessage,
        UpdateErrorSubcode.missingWellKnownAttribute,
        Uint8Array.of(type),
        'treat-as-withdraw',
      ),
    );
  }

  const m: UpdateMessage = { type: 'update', withdrawn, attributes, nlri };
  const withdraw = faults.find((e) => e.handling === 'treat-as-withdraw');
  if (withdraw !== undefined) m.treatAsWithdraw = withdraw;
  const discarded = faults.filter((e) => e.handling === 'attribute-discard');
  if (discarded.length > 0) m.discarded = discarded;
  return m;
}

/** Encodes an UPDATE body; `treatAsWithdraw` and `discarded` are decoder outputs and are not sent. */
export function encodeUpdate(m: UpdateMessage, ctx: CodecContext): Uint8Array {
  const w = new Writer();
  const withdrawn = new Writer();
  encodePrefixes(withdrawn, m.withdrawn, 4, 'withdrawn routes');
  const attributes = encodePathAttributes(m.attributes, ctx);
  if (withdrawn.length > UINT16_MAX || attributes.length > UINT16_MAX)
    throw new Error('UPDATE fields exceed 65535 octets');
  w.u16(withdrawn.length).bytes(withdrawn.finish()).u16(attributes.length).bytes(attributes);
  encodePrefixes(w, m.nlri, 4, 'NLRI');
  return w.finish();
}
