import { describe, expect, it } from 'vitest';
import { buildLogLine } from './docker-engine.ts';

describe('buildLogLine', () => {
  it("decodes BuildKit's log messages, which dockerode passes on base64-encoded", () => {
    const npm = 'npm error code SELF_SIGNED_CERT_IN_CHAIN\n';
    expect(buildLogLine(Buffer.from(npm).toString('base64'))).toBe(npm.trimEnd());
    expect(buildLogLine(Buffer.from('Setting up g++ (4:12.2.0-3) ...\r\n').toString('base64'))).toBe(
      'Setting up g++ (4:12.2.0-3) ...',
    );
  });

  it('leaves step, error, status and legacy-builder lines as they are', () => {
    for (const line of [
      '[sha256:0da43] [deps-npm 5/5] RUN npm ci --omit=dev',
      'ERROR: executor failed running [/bin/sh -c npm ci --omit=dev]: exit code: 1',
      'CACHED: [deps 1/1] RUN find node_modules',
      'Step 3/12 : WORKDIR /app',
      'Successfully tagged lblab:0.1.0-26f9123dd3af',
    ]) {
      expect(buildLogLine(line)).toBe(line);
    }
  });
});
