/** `lblab pcap decode FILE [--json] [--follow [--follow-timeout S]]`: the ARP, NDP, BGP and BFD events of a capture. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  CaptureDecoder,
  CaptureFileError,
  CaptureFollowError,
  CaptureFormatError,
  CaptureStream,
  eventJson,
  followFile,
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

--follow decodes a classic pcap file while it is being written, like tail -f: it waits for the file to
appear, prints each event (a line each, flushed) as soon as its packet is in the file, and keeps reading as
the file grows. Give tcpdump -U (--packet-buffered) so each packet reaches the file when it is captured.
It stops on SIGINT or SIGTERM (exit 0, a record still being written is noted on stderr), or after
--follow-timeout seconds in which the file did not grow (or appear); then the file is taken as complete,
and one that ends inside a record is an error as without --follow. pcapng cannot be followed (exit 2):
decode it once it is complete.

Packets that are skipped (fragments, unknown link types, bad headers) are counted on stderr.
Exit status: 0 decoded, 2 the file is missing, unreadable, not a capture, or cut short (the message names the
byte offset; events before it are still printed).`;

interface DecodeOptions {
  json: boolean;
  follow: boolean;
  followTimeout?: number;
}

export function registerPcapCommands(program: Command): void {
  const pcap = program.command('pcap').description('packet captures');
  pcap
    .command('decode')
    .description('print the ARP, NDP, BGP and BFD events of a pcap or pcapng file')
    .argument('<file>', 'capture file written by tcpdump, dumpcap or tshark')
    .option('--json', 'JSON Lines: one object per event, exact timestamps', false)
    .option('--follow', 'keep reading classic pcap as it is written, until SIGINT/SIGTERM', false)
    .addOption(
      new Option(
        '--follow-timeout <seconds>',
        'stop after this long without the file growing or appearing (implies --follow; default: never)',
      )
        .argParser(seconds)
        .implies({ follow: true }),
    )
    .addHelpText('after', help)
    .action(async (file: string, opts: DecodeOptions) => {
      if (!opts.follow) {
        process.exitCode = await decodeCaptureFile(file, opts, processOutput);
        return;
      }
      const idleMs = opts.followTimeout === undefined ? undefined : opts.followTimeout * 1000;
      process.exitCode = await untilStopSignal((signal) =>
        followCaptureFile(file, { json: opts.json, idleMs, signal }, processOutput),
      );
    });
}

function seconds(text: string): number {
  const value = Number(text);
  if (!(value > 0 && Number.isFinite(value))) throw new InvalidArgumentError('a number of seconds above 0');
  return value;
}

/** Runs `follow` with a signal that SIGINT or SIGTERM aborts, instead of ending the process. */
async function untilStopSignal(follow: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once('SIGINT', abort).once('SIGTERM', abort);
  try {
    return await follow(stop.signal);
  } finally {
    process.off('SIGINT', abort).off('SIGTERM', abort);
  }
}

export async function decodeCaptureFile(file: string, opts: { json: boolean }, out: Output): Promise<number> {
  const events: CaptureEvent[] = [];
  let decoder: CaptureDecoder | undefined;
  let failure: Error | undefined;
  try {
    decoder = new CaptureDecoder(await readCaptureFile(file), file);
    for (const e of decoder.events()) events.push(e);
  } catch (e) {
    failure = captureFailure(e);
  }
  const showInterface = (decoder?.interfaces.length ?? 0) > 1;
  for (const e of events) out.stdout(opts.json ? eventJson(e) : textLine(e, showInterface));
  return finish(decoder?.notes() ?? [], failure, out);
}

/**
 * `--follow`: prints the events of a classic pcap file as the file grows, until `signal` aborts (a record
 * left unfinished is a note) or the file has not grown for `idleMs` (the file is complete: an unfinished
 * record is an error).
 */
export async function followCaptureFile(
  file: string,
  opts: { json: boolean; idleMs?: number | undefined; signal?: AbortSignal; pollMs?: number },
  out: Output,
): Promise<number> {
  const stream = new CaptureStream(file);
  const print = (events: Iterable<CaptureEvent>) => {
    for (const e of events) out.stdout(opts.json ? eventJson(e) : textLine(e, stream.interfaces.length > 1));
  };
  let failure: Error | undefined;
  try {
    for await (const piece of followFile(file, opts)) print(stream.push(piece));
    print(opts.signal?.aborted ? stream.stop() : stream.end());
  } catch (e) {
    failure = captureFailure(e);
  }
  return finish(stream.notes(), failure, out);
}

/** The errors that are the capture's fault, as opposed to lblab's: reported, with exit status 2. */
function captureFailure(e: unknown): Error {
  if (e instanceof CaptureFileError || e instanceof CaptureFormatError || e instanceof CaptureFollowError)
    return e;
  throw e;
}

function finish(notes: readonly string[], failure: Error | undefined, out: Output): number {
  for (const note of notes) out.stderr(`lblab pcap decode: note: ${note}`);
  if (failure === undefined) return exitCodes.ok;
  out.stderr(`lblab pcap decode: ${failure.message}`);
  return exitCodes.error;
}

function textLine(e: CaptureEvent, showInterface: boolean): string {
  const time = e.time ?? '(no timestamp)';
  return showInterface ? `${time}  ${e.interface}  ${e.summary}` : `${time}  ${e.summary}`;
}
