// Transcripts recorded from real kubectl v1.32.5 run against the fixture
// server (testing/fakeApiserver.ts over HTTP, same objects, same clock): our
// kubectl must print the same bytes and exit with the same code.
import { describe, expect, it } from 'vitest';
import golden from './testdata/golden-kubectl-1.32.5.json';
import { runKubectl } from './index';
import { fixtureServer } from './testing/fixtures';
import { OPENAPI } from './testing/openapiFixture';

interface Case {
  steps: string[][];
  stdin: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

const data = golden as { now: number; files: Record<string, string>; cases: Case[] };

describe('golden transcripts from kubectl v1.32.5', () => {
  for (const c of data.cases) {
    it(c.steps.map((s) => s.join(' ')).join(' && '), async () => {
      const fake = fixtureServer(data.now, { deniedUsers: ['jane'], openapi: OPENAPI });
      const env = { transport: fake.transport(), files: data.files, now: () => data.now, namespace: 'default', stdin: c.stdin, server: 'http://127.0.0.1:18080' };
      let stdout = '';
      let stderr = '';
      let exitCode = 0;
      for (const step of c.steps) {
        const r = await runKubectl(step, env);
        stdout += r.stdout;
        stderr += r.stderr;
        exitCode = r.exitCode;
      }
      expect(stdout).toBe(c.stdout);
      expect(stderr).toBe(c.stderr);
      expect(exitCode).toBe(c.exitCode);
    });
  }
});
