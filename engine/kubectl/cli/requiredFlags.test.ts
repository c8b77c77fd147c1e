// cobra's required flags (FlagDef.required, checked in root.ts before the command runs).
import { describe, expect, it } from 'vitest';
import { runKubectl } from '../index';

const run = (args: string[]) => runKubectl(args, { files: {}, namespace: 'default', now: () => 0, transport: {} as never });

describe('cobra required flags', () => {
  it('lists every missing one, sorted', async () => {
    const r = await run(['create', 'cronjob']);
    expect(r.stderr).toBe('error: required flag(s) "image", "schedule" not set\n');
    expect(r.exitCode).toBe(1);
  });

  it('passes when they were given', async () => {
    const r = await run(['create', 'cronjob', '--image=x', '--schedule=* * * * *']);
    expect(r.stderr).not.toContain('required flag');
    expect(r.stderr).toContain('exactly one NAME is required, got 0');
  });
});
