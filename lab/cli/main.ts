import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { exitCodes } from './exit-codes.ts';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded when the command runs: `lblab run` (and `npm run lab`) need not load the
 * speaker's, the controller's or the docker and kind labs' code. In the order `lblab --help` lists them.
 */
const commands: Readonly<Record<string, () => Promise<Register>>> = {
  run: async () => {
    // The report draws its charts on a thread of its own, which loads vega first: started before the run
    // command's modules load rather than after, it is ready sooner (lblab run calls it again: a no-op).
    (await import('../../reports/html/vega-svg.ts')).warmCharts();
    return (await import('./commands/run.ts')).registerRunCommand;
  },
  report: async () => {
    const [report, pdf] = await Promise.all([
      import('./commands/report.ts'),
      import('./commands/report-pdf.ts'),
    ]);
    return (program) => pdf.registerReportPdfCommand(report.registerReportCommands(program));
  },
  config: async () => (await import('./commands/config.ts')).registerConfigCommands,
  controller: async () => (await import('./commands/controller.ts')).registerControllerCommand,
  speaker: async () => (await import('./commands/speaker.ts')).registerSpeakerCommand,
  lab: async () => (await import('./commands/lab.ts')).registerLabCommands,
  pcap: async () => (await import('./commands/pcap.ts')).registerPcapCommands,
  manifests: async () => (await import('./commands/manifests.ts')).registerManifestsCommand,
  images: async () => (await import('./commands/images.ts')).registerImagesCommands,
};

/**
 * Builds the `lblab` program; each command lives in its own file under commands/. Given the command the
 * user named, only that one is loaded, and none for `--version`; anything else (no command, `--help`, a
 * typo to suggest a correction for) gets them all.
 */
export async function buildProgram(command?: string): Promise<Command> {
  const program = new Command('lblab')
    .description('Service load balancer for bare-metal Kubernetes, and the network lab that proves it')
    .version(packageJson.version)
    .showHelpAfterError()
    .exitOverride();
  const names =
    command === '--version' || command === '-V'
      ? []
      : command !== undefined && Object.hasOwn(commands, command)
        ? [command]
        : Object.keys(commands);
  const registers = await Promise.all(names.map((name) => commands[name]!()));
  for (const register of registers) register(program);
  return program;
}

/** Runs the CLI and returns the process exit code (0 ok, 1 a check or gate failed, 2 an error). */
export async function main(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv[2])).parseAsync(argv);
    return process.exitCode === undefined ? exitCodes.ok : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? exitCodes.ok : exitCodes.error;
    }
    process.stderr.write(`lblab: ${err instanceof Error ? err.message : String(err)}\n`);
    return exitCodes.error;
  }
}
