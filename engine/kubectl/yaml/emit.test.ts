import { describe, expect, it } from 'vitest';
import { goFormatFloatG, resolvesAsNonString, sortedYamlKeys, toYaml } from './emit';

// Expected texts are what kubectl v1.32.5 -o yaml printed for the same values.
const one = (v: unknown) => toYaml({ k: v });

describe('toYaml scalar styles (go-yaml v2 as used by sigs.k8s.io/yaml)', () => {
  it.each([
    ['hello world', 'k: hello world\n'],
    ['', 'k: ""\n'],
    ['true', 'k: "true"\n'],
    ['yes', 'k: "yes"\n'],
    ['On', 'k: "On"\n'],
    ['null', 'k: "null"\n'],
    ['~', 'k: "~"\n'],
    ['123', 'k: "123"\n'],
    ['0755', 'k: "0755"\n'],
    ['0x1F', 'k: "0x1F"\n'],
    ['1e3', 'k: "1e3"\n'],
    ['.5', 'k: ".5"\n'],
    ['-.5', 'k: "-.5"\n'],
    ['.inf', 'k: ".inf"\n'],
    ['2024-01-15', 'k: "2024-01-15"\n'],
    ['2024-01-15T10:00:00Z', 'k: "2024-01-15T10:00:00Z"\n'],
    ['2024-13-45', 'k: 2024-13-45\n'],
    ['12:30', 'k: "12:30"\n'],
    ['key: value', "k: 'key: value'\n"],
    ['trailing:', "k: 'trailing:'\n"],
    ['http://example.com/a?b=c#frag', 'k: http://example.com/a?b=c#frag\n'],
    ['a #comment', "k: 'a #comment'\n"],
    ['a#b', 'k: a#b\n'],
    ['*alias', "k: '*alias'\n"],
    ['&anchor', "k: '&anchor'\n"],
    ['-', "k: '-'\n"],
    ['- item', "k: '- item'\n"],
    ["it's", "k: it's\n"],
    ["'single'", "k: '''single'''\n"],
    ['"double"', `k: '"double"'\n`],
    ['...', "k: '...'\n"],
    ['--- x', "k: '--- x'\n"],
    [' leading', "k: ' leading'\n"],
    ['trailing ', "k: 'trailing '\n"],
    ['a\tb', 'k: "a\\tb"\n'],
    ['a\rb', 'k: "a\\rb"\n'],
    ['smile 😀', 'k: "smile \\U0001F600"\n'],
    ['héllo wörld ✓', 'k: héllo wörld ✓\n'],
  ])('%j', (v, want) => {
    expect(one(v)).toBe(want);
  });

  it('uses literal blocks with the right chomping for multi-line strings', () => {
    expect(one('line1\nline2\n')).toBe('k: |\n  line1\n  line2\n');
    expect(one('line1\nline2')).toBe('k: |-\n  line1\n  line2\n');
    expect(one('line1\n\n')).toBe('k: |+\n  line1\n\n');
    expect(one('  indented\nnext\n')).toBe('k: |2\n    indented\n  next\n');
    expect(one('a\n\nb\n')).toBe('k: |\n  a\n\n  b\n');
    expect(one('\n')).toBe('k: |2+\n\n');
    // a space before a line break rules out block style
    expect(one('line1 \nline2\n')).toBe('k: "line1 \\nline2\\n"\n');
  });

  it('folds long plain, single- and double-quoted scalars past column 80', () => {
    const data = {
      long: 'This is a long sentence that goes past the eighty column limit so that go-yaml v2 folds it onto more lines when it writes plain scalars.',
      longDouble: 'tab\tseparated values that are long enough to need folding past the eighty column boundary of go-yaml',
      longNoSpace: 'abcdefghijklmnopqrstuvwxyz'.repeat(4),
      longQuoted: 'Error: "something" failed: rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/nginx:bad": not found',
    };
    expect(toYaml({ data })).toBe(
      [
        'data:',
        '  long: This is a long sentence that goes past the eighty column limit so that go-yaml',
        '    v2 folds it onto more lines when it writes plain scalars.',
        '  longDouble: "tab\\tseparated values that are long enough to need folding past the',
        '    eighty column boundary of go-yaml"',
        `  longNoSpace: ${data.longNoSpace}`,
        `  longQuoted: 'Error: "something" failed: rpc error: code = Unknown desc = failed`,
        `    to pull and unpack image "docker.io/library/nginx:bad": not found'`,
        '',
      ].join('\n'),
    );
  });

  it('quotes keys like values and sorts them in go-yaml natural order', () => {
    expect(toYaml({ '123': 1, 'a: b': 2, n: null, true: 3 })).toBe('"123": 1\n\'a: b\': 2\n"n": null\n"true": 3\n');
    expect(sortedYamlKeys({ a10: 1, a9: 1, a09: 1, 'K-Upper': 1, '-dash-key': 1, amp: 1, 'app.kubernetes.io/name': 1 })).toEqual(['-dash-key', 'K-Upper', 'a9', 'a09', 'a10', 'amp', 'app.kubernetes.io/name']);
  });

  it('lays out nested maps and lists as kubectl does', () => {
    expect(toYaml({ list: [1, 'two', [3, [4]], { five: 5 }, [], {}], empty: {}, emptyList: [] })).toBe(
      'empty: {}\nemptyList: []\nlist:\n- 1\n- two\n- - 3\n  - - 4\n- five: 5\n- []\n- {}\n',
    );
    expect(toYaml({ spec: { containers: [{ name: 'nginx', ports: [{ containerPort: 80 }] }] } })).toBe('spec:\n  containers:\n  - name: nginx\n    ports:\n    - containerPort: 80\n');
  });

  it('prints numbers as Go does', () => {
    expect(toYaml({ half: 0.5, huge: 1e21, million: 1234567.5, small: 0.000001, tiny: 1e-7, big: 9007199254740991, neg: -7 })).toBe(
      'big: 9007199254740991\nhalf: 0.5\nhuge: 1e+21\nmillion: 1.2345675e+06\nneg: -7\nsmall: 1e-06\ntiny: 1e-07\n',
    );
    expect(goFormatFloatG(100000.5)).toBe('100000.5');
  });

  it('knows which plain strings read back as something else', () => {
    expect(resolvesAsNonString('<<')).toBe(false);
    expect(resolvesAsNonString('+1')).toBe(true);
    expect(resolvesAsNonString('0b101')).toBe(true);
    expect(resolvesAsNonString('web-1')).toBe(false);
  });
});
