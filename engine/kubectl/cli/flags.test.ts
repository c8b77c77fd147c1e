import { describe, expect, it } from 'vitest';
import { FlagError, FlagSet, HelpRequested, getStrings, parseGoDuration } from './flags';

const set = () =>
  new FlagSet([
    { name: 'namespace', shorthand: 'n', kind: 'string' },
    { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
    { name: 'watch', shorthand: 'w', kind: 'bool' },
    { name: 'output', shorthand: 'o', kind: 'string' },
    { name: 'chunk-size', kind: 'int', default: 500 },
    { name: 'label-columns', shorthand: 'L', kind: 'stringSlice' },
    { name: 'from-literal', kind: 'stringArray' },
    { name: 'dry-run', kind: 'string', default: 'none', noOptDefVal: 'unchanged' },
  ]);

describe('FlagSet (spf13/pflag semantics)', () => {
  it('accepts long, short, combined and = forms, interspersed with arguments', () => {
    const p = set().parse(['get', '-nkube-system', 'pods', '-Aw', '--output=yaml', '--chunk-size', '7', '-o', 'wide']);
    expect(p.args).toEqual(['get', 'pods']);
    expect(p.values.get('namespace')).toBe('kube-system');
    expect(p.values.get('all-namespaces')).toBe(true);
    expect(p.values.get('watch')).toBe(true);
    expect(p.values.get('output')).toBe('wide');
    expect(p.values.get('chunk-size')).toBe(7);
    expect(p.changed.has('chunk-size')).toBe(true);
  });

  it('stops at -- and remembers where', () => {
    const p = set().parse(['deploy', 'x', '--', 'sh', '-c', 'echo']);
    expect(p.args).toEqual(['deploy', 'x', 'sh', '-c', 'echo']);
    expect(p.argsLenAtDash).toBe(2);
  });

  it('splits string slices as CSV and keeps string arrays whole', () => {
    const p = set().parse(['-L', 'app,tier', '-L', 'x', '--from-literal=a=b,c', '--from-literal=d=e']);
    expect(getStrings(p, 'label-columns')).toEqual(['app', 'tier', 'x']);
    expect(getStrings(p, 'from-literal')).toEqual(['a=b,c', 'd=e']);
  });

  it('gives a bare --dry-run its NoOptDefVal', () => {
    expect(set().parse(['--dry-run']).values.get('dry-run')).toBe('unchanged');
    expect(set().parse(['--dry-run=server']).values.get('dry-run')).toBe('server');
  });

  it.each([
    [['--foo'], 'unknown flag: --foo'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['-n'], "flag needs an argument: 'n' in -n"],
    [['--output'], 'flag needs an argument: --output'],
    [['--chunk-size=abc'], 'invalid argument "abc" for "--chunk-size" flag: strconv.ParseInt: parsing "abc": invalid syntax'],
    [['--watch=x'], 'invalid argument "x" for "-w, --watch" flag: strconv.ParseBool: parsing "x": invalid syntax'],
    [['---x'], 'bad flag syntax: ---x'],
  ])('%j fails with pflag text', (argv, msg) => {
    expect(() => set().parse(argv)).toThrow(new FlagError(msg));
  });

  it('treats -h/--help as a help request', () => {
    expect(() => set().parse(['-h'])).toThrow(HelpRequested);
    expect(() => set().parse(['--help'])).toThrow(HelpRequested);
  });

  it('parses Go durations', () => {
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('5')).toBeUndefined();
  });
});
