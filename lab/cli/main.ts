import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { registerConfigCommands } from './commands/config.ts';
import { registerControllerCommand } from './commands/controller.ts';
import { registerImagesCommands } from './commands/images.ts';
import { registerLabCommands } from './commands/lab.ts';
import { registerManifestsCommand } from './commands/manifests.ts';
import { registerPcapCommands } from './commands/pcap.ts';
import { registerReportCommands } from './commands/report.ts';
import { registerReportPdfCommand } from './commands/report-pdf.ts';
import { registerRunCommand } from './commands/run.ts';
import { registerSpeakerCommand } from './commands/speaker.ts';
import { exitCodes } from './exit-codes.ts';

/** Builds the `lblab` program; each command lives in its own file under commands/. */
export function buildProgram(): Command {
  const program = new Command('lblab')
    .description('Service load balancer for bare-metal Kubernetes, and the network lab that proves it')
    .version(packageJson.version)
    .showHelpAfterError()
    .exitOverride();
  registerRunCommand(program);
  registerReportPdfCommand(registerReportCommands(program));
  registerConfigCommands(program);
  registerControllerCommand(program);
  registerSpeakerCommand(program);
  registerLabCommands(program);
  registerPcapCommands(program);
  registerManifestsCommand(program);
  registerImagesCommands(program);
  return program;
}

/** Runs the CLI and returns the process exit code (0 ok, 1 a check or gate failed, 2 an error). */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return process.exitCode === undefined ? exitCodes.ok : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? exitCodes.ok : exitCodes.error;
    }
    process.stderr.write(`lblab: ${err instanceof Error ? err.message : String(err)}\n`);
    return exitCodes.error;
  }
}
