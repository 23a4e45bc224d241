// Runs inside a client container for speaker-arp.docker.test.ts: asks who has an IPv4 address with ARP
// requests sent through lblab's own AF_PACKET port (so the image needs no arping), one every 100 ms until
// an answer or the deadline, and prints the first answer's sender MAC.
// Usage: node --import tsx arp-ask.docker-child.ts INTERFACE SENDER_IP TARGET_IP TIMEOUT_MS
// stdout, one JSON line: {answered: true, mac, afterMs, requests} | {answered: false, requests}
// Exit status 0 either way; 1 with {error} when the port cannot be opened (EPERM: no CAP_NET_RAW).
import { decodeFrame, encodeFrame, arpRequest } from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { AfPacketPort } from '../../core/runtime/af-packet-port.ts';

const REQUEST_INTERVAL_MS = 100;

async function main([interfaceName = '', sender = '', target = '', timeout = '']: string[]): Promise<number> {
  const senderIp = IpAddress.parse(sender);
  const targetIp = IpAddress.parse(target);
  const timeoutMs = Number(timeout);
  let port: AfPacketPort;
  try {
    port = AfPacketPort.open(interfaceName);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ error: e instanceof Error ? e.message : String(e) })}\n`);
    return 1;
  }
  const started = performance.now();
  const request = encodeFrame(arpRequest({ senderMac: port.mac, senderIp, targetIp }));
  let requests = 0;
  const answer = await new Promise<string | undefined>((resolve) => {
    const ask = () => {
      port.send(request);
      requests++;
    };
    const repeat = setInterval(ask, REQUEST_INTERVAL_MS);
    const deadline = setTimeout(() => {
      clearInterval(repeat);
      resolve(undefined);
    }, timeoutMs);
    port.onFrame((bytes) => {
      let frame;
      try {
        frame = decodeFrame(bytes);
      } catch {
        return; // not an answer: malformed frames are no concern of this probe
      }
      if (frame.kind !== 'arp' || frame.arp.op !== 'reply' || !frame.arp.senderIp.equals(targetIp)) return;
      clearTimeout(deadline);
      clearInterval(repeat);
      resolve(frame.arp.senderMac.toString());
    });
    ask();
  });
  port.close();
  const afterMs = Math.round(performance.now() - started);
  const result =
    answer === undefined ? { answered: false, requests } : { answered: true, mac: answer, afterMs, requests };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
