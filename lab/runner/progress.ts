/**
 * Progress of a run: a live line on a terminal, plain lines in CI or when output is piped (so logs
 * stay readable and nothing is overwritten).
 */
export interface Progress {
  scenarioStarted(name: string, index: number, total: number): void;
  step(text: string): void;
  scenarioEnded(line: string): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stdout): Progress {
  const live = stream.isTTY === true && !process.env['CI'];
  let current = '';
  const clear = () => {
    if (live && current) stream.write('\r\x1b[2K');
  };
  return {
    scenarioStarted(name, index, total) {
      current = `[${index + 1}/${total}] ${name}`;
      if (live) stream.write(current);
      else stream.write(`${current}\n`);
    },
    step(text) {
      if (live) {
        clear();
        // A terminal that reports no width (0) gets a sensible one rather than a cut-off line.
        stream.write(`${current}: ${text}`.slice(0, (stream.columns || 100) - 1));
      }
    },
    scenarioEnded(line) {
      clear();
      current = '';
      stream.write(`${line}\n`);
    },
  };
}
