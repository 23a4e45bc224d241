import { scenario } from '../../lab/runner/scenario.ts';
import { crashCarrier } from './routed.ts';

export default scenario(
  'bgp: hosted control plane API, a node dies',
  { needs: ['bgp', 'bfd', 'kill'], topology: 'topologies/hcp-api-bgp.yaml' },
  async (lab) => {
    // The seed documents' hosted control plane: the API server's /32 from an IPAddressPool, announced
    // by three nodes in AS 64513 to r1 (AS 64512); API clients behind r1 must ride out a node's death.
    await crashCarrier(lab, 'kube-apiserver', { probeSeconds: 4, detectionLimitMs: 1000 });
    lab.gate('outageMs', { below: 1000 });
  },
);
