import { scenario } from '../../lab/runner/scenario.ts';
import { crashCarrier } from './node-crash.ts';

// The same crash for the Service's IPv6 address: the new owner must override the client's neighbour
// entry with an unsolicited NA (RFC 4861 §7.2.6), which Linux takes only with the Override flag.
export default scenario('l2: node crash (IPv6)', { needs: ['l2', 'ipv6', 'kill'] }, (lab) =>
  crashCarrier(lab, 6),
);
