import { netnsPrerequisites } from './prerequisites.ts';

/**
 * For netns test files: throws (failing the tier) when the machine cannot run it, unless the developer
 * opts out explicitly with LBLAB_SKIP_NETNS=1, in which case the caller skips with a visible reason.
 */
export async function requireNetns(extraCommands: readonly string[] = []): Promise<'run' | 'skip'> {
  const missing = await netnsPrerequisites(extraCommands);
  if (missing.length === 0) return 'run';
  if (process.env['LBLAB_SKIP_NETNS'] === '1') return 'skip';
  throw new Error(
    `the netns tier cannot run here; missing: ${missing.join('; ')}. ` +
      `.ci/run installs these; set LBLAB_SKIP_NETNS=1 to skip this tier knowingly.`,
  );
}
