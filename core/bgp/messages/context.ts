/** What the two speakers negotiated, which changes the encoding. */
export interface CodecContext {
  /**
   * Both sides announced the 4-octet AS capability (RFC 6793 §4.1): AS_PATH and AGGREGATOR carry
   * 4-octet AS numbers and AS4_PATH / AS4_AGGREGATOR are not used.
   */
  fourOctetAs: boolean;
}
