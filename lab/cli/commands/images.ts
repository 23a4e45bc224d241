/** `lblab images build [--base IMAGE]`: lblab's container image, and the local base it is built on. */
import type { Command } from 'commander';
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

const help = `
Without --base, the base is made here: Debian bookworm by debootstrap (variant minbase, needs root and
the debootstrap package) around this machine's node, imported as lblab-base:bookworm-<hash of its
recipe>; node_modules and the native addons are this machine's. With --base (e.g. node:20-bookworm-slim
on GitHub) that image is used, pulled when missing, and npm ci runs inside it so the addons match it.

With --lab (what \`lblab run --backend docker\` builds on demand) also the docker lab's image: the same
build on lblab-lab-base, which adds FRR, BIRD, GoBGP, keepalived, iproute2, nftables and tcpdump
(debootstrap --include here, apt-get in ci/image/lab-base.Dockerfile on --base), tagged lblab-lab:<...>.

The image holds the files lblab's CLI imports, production node_modules and the addons; it runs
\`lblab\` as user 65534 (the speaker's DaemonSet runs it as root with NET_RAW only). It is tagged
lblab:<package.json version>-<12 hex of a hash of its build context and base> and never latest. Either
image is reused when its tag exists. Needs a Docker engine (DOCKER_HOST or /var/run/docker.sock).
Exit status: 0 built or reused, 2 an error.`;

export function registerImagesCommands(program: Command): void {
  const images = program.command('images').description("lblab's container image for controller and speaker");
  images
    .command('build')
    .description('build (or reuse) the base and lblab image; print their tags, build times and sizes')
    .option('--base <image>', 'base image with Node 20 as `node` (default: a Debian bookworm base made here)')
    .option('--lab', "also the docker lab's image (routers, peers and network tools beside lblab)")
    .addHelpText('after', help)
    .action(async (opts: { base?: string; lab?: boolean }) => {
      process.exitCode = await buildImagesCommand(opts, processOutput);
    });
}

export async function buildImagesCommand(
  opts: { base?: string; lab?: boolean },
  out: Output,
): Promise<number> {
  // Loaded here, not at the top: the image builder needs development dependencies (testcontainers,
  // execa, typescript) that a production install of lblab, such as the image itself, does not have.
  const { buildImages } = await import('../../images/build-images.ts');
  try {
    const built = await buildImages({ ...opts, log: (line) => out.stderr(`lblab images: ${line}`) });
    const rows = [
      ['base', built.base.ref, built.base.builtMs, built.base.sizeBytes, opts.base ? 'pulled' : 'made'],
      ['image', built.image.ref, built.image.builtMs, built.image.sizeBytes, 'built'],
      ...(built.lab
        ? ([
            ['lab base', built.lab.base.ref, built.lab.base.builtMs, built.lab.base.sizeBytes, 'made'],
            ['lab', built.lab.image.ref, built.lab.image.builtMs, built.lab.image.sizeBytes, 'built'],
          ] as const)
        : []),
    ] as const;
    const width = Math.max(...rows.map((r) => r[1].length));
    for (const [role, ref, ms, size, verb] of rows) {
      const how = ms === undefined ? 'reused' : `${verb} in ${(ms / 1000).toFixed(1)} s`;
      out.stdout(`${role.padEnd(8)}  ${ref.padEnd(width)}  ${(size / 1e6).toFixed(1)} MB  ${how}`);
    }
    return exitCodes.ok;
  } catch (err) {
    if (!(err instanceof LblabError)) throw err;
    out.stderr(`lblab images build: ${err.message}`);
    return exitCodes.error;
  }
}
