import { accessSync, constants } from 'node:fs';
import { ChromiumNotFoundError } from './errors.ts';

/** Debian's chromium package installs here; the lab never downloads a browser of its own. */
export const debianChromium = '/usr/bin/chromium';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The chromium to print with: LBLAB_CHROMIUM when set (and then only it, so a wrong override is an error
 * rather than a silent fallback), else Debian's.
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  executable: (path: string) => boolean = isExecutable,
): string {
  const override = env.LBLAB_CHROMIUM;
  if (override !== undefined && override !== '') {
    if (executable(override)) return override;
    throw new ChromiumNotFoundError(
      `LBLAB_CHROMIUM=${override} is not an executable file; point it at a chromium binary or unset it to use ${debianChromium}`,
    );
  }
  if (executable(debianChromium)) return debianChromium;
  throw new ChromiumNotFoundError(
    `no chromium found: LBLAB_CHROMIUM is not set and ${debianChromium} does not exist; ` +
      `install Debian's browser with \`apt-get install chromium\` (lblab never downloads one)`,
  );
}
