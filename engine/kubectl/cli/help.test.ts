// `kubectl <command> --help` in kubectl's layout: subcommands and options
// sorted by name, names padded as kubectl's templater pads them, and every
// option described (cli/flagUsage.ts).
import { describe, expect, it } from 'vitest';
import { runKubectl } from '../index';
import { buildRoot } from '../cmd/registry';
import { flagUsage, type CommandSpec } from './root';

const run = (args: string[]) => runKubectl(args, { files: {}, namespace: 'default', now: () => 0, transport: {} as never });

describe('command help', () => {
  it('lists subcommands sorted, padded to the longest name (at least 11) plus three spaces, and points at their help', async () => {
    const r = await run(['rollout', '--help']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    const i = lines.indexOf('Available Commands:');
    expect(lines.slice(i + 1, i + 7)).toEqual([
      '  history       View rollout history',
      '  pause         Mark the provided resource as paused',
      '  restart       Restart a resource',
      '  resume        Resume a paused resource',
      '  status        Show the status of the rollout',
      '  undo          Undo a previous rollout',
    ]);
    expect(r.stdout).toContain('Use "kubectl rollout <command> --help" for more information about a given command.\n');
  });

  it('lists options sorted by name, each with its default and a description', async () => {
    const r = await run(['get', '--help']);
    const heads = r.stdout.split('\n').filter((l) => /^ {4}-/.test(l));
    const names = heads.map((l) => /--([a-z0-9-]+)=/.exec(l)![1]!);
    expect(names).toEqual([...names].sort());
    expect(heads).toContain('    -A, --all-namespaces=false:');
    expect(heads).toContain('    --chunk-size=500:');
    // The line after each option head is its description, indented by a tab.
    const lines = r.stdout.split('\n');
    for (const h of heads) {
      const d = lines[lines.indexOf(h) + 1]!;
      expect(d.startsWith('\t') && d.length > 10, `${h} has a description`).toBe(true);
    }
    expect(r.stdout).not.toContain('for more information about a given command');
  });

  it('describes every visible flag of every command', () => {
    const missing: string[] = [];
    const walk = (c: CommandSpec, path: string) => {
      for (const f of c.flags ?? []) if (!f.hidden && !flagUsage(path, f)) missing.push(`${path} --${f.name}`);
      for (const s of c.subcommands ?? []) if (!s.hidden) walk(s, path ? `${path} ${s.name}` : s.name);
    };
    walk(buildRoot(), '');
    expect(missing).toEqual([]);
  });
});
