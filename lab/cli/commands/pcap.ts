/** `lblab pcap decode FILE [--json]`: the ARP, NDP, BGP and BFD events in a packet capture. */
import type { Command } from 'commander';
import {
  CaptureDecoder,
  CaptureFileError,
  CaptureFormatError,
  eventJson,
  readCaptureFile,
  type CaptureEvent,
} from '../../capture/index.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

const help = `
Reads classic pcap (microsecond or nanosecond, either byte order) and pcapng (any number of interfaces,
if_tsresol), on Ethernet and Linux cooked (SLL, SLL2) links. Decodes ARP, NDP (RS, RA, NS, NA), BGP on
TCP port 179 (streams reassembled; malformed messages are reported as events) and BFD Control packets
(UDP 3784 and 4784).

Text output: one line per event, "<ISO time with the capture's precision>  <summary>"; when the file has
more than one interface, the interface name follows the time.

--json prints JSON Lines: one object per event and line, with the fields
  frame      packet number in the file (1-based, as tshark's frame.number)
  timeNs     nanoseconds since the Unix epoch as a decimal string (exact; absent for pcapng simple packets)
  time       the same instant in ISO 8601 UTC with the capture's precision
  interface  pcapng if_name, or "if<N>"
  protocol   arp | ndp | bgp | bfd
  src, dst   addresses (address:port for BGP and BFD)
  summary    the text line's summary
  details    the decoded message (details.kind says which)

Packets that are skipped (fragments, unknown link types, bad headers) are counted on stderr.
Exit status: 0 decoded, 2 the file is missing, unreadable, not a capture, or cut short (the message names the
byte offset; events before it are still printed).`;

export function registerPcapCommands(program: Command): void {
  const pcap = program.command('pcap').description('packet captures');
  pcap
    .command('decode')
    .description('print the ARP, NDP, BGP and BFD events of a pcap or pcapng file')
    .argument('<file>', 'capture file written by tcpdump, dumpcap or tshark')
    .option('--json', 'JSON Lines: one object per event, exact timestamps', false)
    .addHelpText('after', help)
    .action(async (file: string, opts: { json: boolean }) => {
      process.exitCode = await decodeCaptureFile(file, opts, processOutput);
    });
}

export async function decodeCaptureFile(file: string, opts: { json: boolean }, out: Output): Promise<number> {
  const events: CaptureEvent[] = [];
  let decoder: CaptureDecoder | undefined;
  let failure: Error | undefined;
  try {
    decoder = new CaptureDecoder(await readCaptureFile(file), file);
    for (const e of decoder.events()) events.push(e);
  } catch (e) {
    if (!(e instanceof CaptureFileError || e instanceof CaptureFormatError)) throw e;
    failure = e;
  }
  const showInterface = (decoder?.interfaces.length ?? 0) > 1;
  for (const e of events) out.stdout(opts.json ? eventJson(e) : textLine(e, showInterface));
  for (const note of decoder?.notes() ?? []) out.stderr(`lblab pcap decode: note: ${note}`);
  if (failure !== undefined) {
    out.stderr(`lblab pcap decode: ${failure.message}`);
    return exitCodes.error;
  }
  return exitCodes.ok;
}

function textLine(e: CaptureEvent, showInterface: boolean): string {
  const time = e.time ?? '(no timestamp)';
  return showInterface ? `${time}  ${e.interface}  ${e.summary}` : `${time}  ${e.summary}`;
}
