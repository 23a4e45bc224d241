import { describe, expect, it } from 'vitest';
import { ChromiumNotFoundError, debianChromium, findChromium } from './index.ts';

const only =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

describe('findChromium', () => {
  it("uses Debian's chromium when LBLAB_CHROMIUM is not set", () => {
    expect(findChromium({}, only(debianChromium))).toBe('/usr/bin/chromium');
    expect(findChromium({ LBLAB_CHROMIUM: '' }, only(debianChromium))).toBe('/usr/bin/chromium');
  });

  it('prefers LBLAB_CHROMIUM, and rejects a wrong one instead of falling back', () => {
    const env = { LBLAB_CHROMIUM: '/opt/chrome/chrome' };
    expect(findChromium(env, only('/opt/chrome/chrome', debianChromium))).toBe('/opt/chrome/chrome');
    expect(() => findChromium(env, only(debianChromium))).toThrow(
      'LBLAB_CHROMIUM=/opt/chrome/chrome is not an executable file',
    );
  });

  it('names both places and the apt-get command when there is no browser', () => {
    let error: unknown;
    try {
      findChromium({}, only());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChromiumNotFoundError);
    expect(error).toMatchObject({ code: 'CHROMIUM_NOT_FOUND' });
    const message = (error as Error).message;
    for (const part of ['LBLAB_CHROMIUM', '/usr/bin/chromium', 'apt-get install chromium'])
      expect(message).toContain(part);
  });
});
