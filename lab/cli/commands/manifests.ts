/** `lblab manifests`: print the install bundle, YAML that installs lblab where MetalLB would run. */
import type { Command } from 'commander';
import packageJson from '../../../package.json' with { type: 'json' };
import { defaultNamespace } from '../../../core/config/index.ts';
import { bundleYaml, installBundle } from '../../../core/k8s/bundle/bundle.ts';
import {
  InvalidImageReferenceError,
  InvalidNamespaceError,
  type BundleOptions,
} from '../../../core/k8s/bundle/options.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

export const defaultImage = `lblab:${packageJson.version}`;

export function registerManifestsCommand(program: Command): void {
  program
    .command('manifests')
    .description(
      'print YAML that installs lblab where MetalLB would run: namespace, CRDs, RBAC, controller, speaker, webhooks (kubectl apply -f -)',
    )
    .option(
      '--namespace <name>',
      'the namespace to install into, where the MetalLB resources live',
      defaultNamespace,
    )
    .option('--image <reference>', 'the image of the controller and the speaker', defaultImage)
    .option(
      '--no-crds',
      'leave out the metallb.io CustomResourceDefinitions (when they are managed separately)',
    )
    .option(
      '--no-webhooks',
      'leave out the validating webhooks and the BGPPeer conversion webhook; the controller serves none',
    )
    .action((opts: BundleOptions) => {
      process.exitCode = printManifests(opts, processOutput);
    });
}

/** Prints the bundle (exit 0), or why the options cannot make one (exit 2). */
export function printManifests(options: BundleOptions, out: Output): number {
  let objects;
  try {
    objects = installBundle(options);
  } catch (err) {
    if (!(err instanceof InvalidNamespaceError || err instanceof InvalidImageReferenceError)) throw err;
    out.stderr(`lblab manifests: ${err.message}`);
    return exitCodes.error;
  }
  const flags = [
    `--namespace ${options.namespace}`,
    `--image ${options.image}`,
    ...(options.crds ? [] : ['--no-crds']),
    ...(options.webhooks ? [] : ['--no-webhooks']),
  ];
  const header = `lblab ${packageJson.version} install bundle (lblab manifests ${flags.join(' ')})\nInstall: kubectl apply -f <this file>`;
  out.stdout(bundleYaml(objects, header).trimEnd());
  return exitCodes.ok;
}
