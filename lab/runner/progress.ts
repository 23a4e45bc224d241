/**
 * Progress of a run: a live line on a terminal, plain lines in CI or when output is piped (so logs
 * stay readable and nothing is overwritten).
 */
export interface Progress {
  scenarioStarted(name: string, index: number, total: number): void;
  step(text: string): void;
  scenarioEnded(line: string): void;
  /** `--repeat N`: repeat `index` (from 0) of the current scenario starts; optional for quiet callers. */
  repeatStarted?(index: number, total: number): void;
  /** A repeat ended; `line` says how it went. */
  repeatEnded?(line: string): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stdout): Progress {
  const live = stream.isTTY === true && !process.env['CI'];
  let current = '';
  let scenario = '';
  const clear = () => {
    if (live && current) stream.write('\r\x1b[2K');
  };
  return {
    scenarioStarted(name, index, total) {
      current = scenario = `[${index + 1}/${total}] ${name}`;
      if (live) stream.write(current);
      else stream.write(`${current}\n`);
    },
    repeatStarted(index, total) {
      clear();
      current = `${scenario}, repeat ${index + 1}/${total}`;
      if (live) stream.write(current);
    },
    repeatEnded(line) {
      clear();
      stream.write(`${line}\n`);
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
