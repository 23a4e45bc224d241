import { missingNetworkCapabilities } from '../../../core/runtime/capabilities.ts';
import { sh } from './command.ts';

/**
 * The netns backend needs root (or CAP_NET_ADMIN and CAP_NET_RAW) and iproute2. Says precisely what is
 * missing, so a CI run fails with a reason instead of skipping a real-network tier.
 */
export async function netnsPrerequisites(extraCommands: readonly string[] = []): Promise<string[]> {
  const missing: string[] = [];
  const caps = missingNetworkCapabilities();
  if (caps.length > 0) missing.push(`${caps.join(', ')} (run as root)`);
  for (const cmd of ['ip', ...extraCommands]) {
    if (
      !(await sh(['sh', '-c', `command -v ${cmd}`]).then(
        () => true,
        () => false,
      ))
    ) {
      missing.push(`the ${cmd} command (Debian: ${debianPackage[cmd] ?? cmd})`);
    }
  }
  return missing;
}

const debianPackage: Record<string, string> = {
  ip: 'iproute2',
  nft: 'nftables',
  taskset: 'util-linux',
  ping: 'iputils-ping',
  arping: 'iputils-arping',
  tc: 'iproute2',
  tcpdump: 'tcpdump',
  ndisc6: 'ndisc6',
  tshark: 'tshark',
  dumpcap: 'tshark',
  vtysh: 'frr',
  '/usr/lib/frr/zebra': 'frr',
  '/usr/lib/frr/bgpd': 'frr',
  '/usr/lib/frr/bfdd': 'frr',
  bird: 'bird2',
  birdc: 'bird2',
  gobgpd: 'gobgpd',
  gobgp: 'gobgpd',
};
