// Cases from k8s.io/apimachinery/pkg/labels/selector_test.go and
// pkg/apis/meta/v1/helpers_test.go, plus upstream's exact error texts.
import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import {
  addRequirements,
  everything,
  formatLabels,
  formatLabelSelector,
  isEmpty,
  labelSelectorAsSelector,
  lex,
  matches,
  newRequirement,
  nothing,
  parse,
  requiresExactMatch,
  selectorFromSet,
  toString,
  type Operator,
  type Requirement,
  type Selector,
  type Token,
} from './labels';

function mustParse(s: string): Selector {
  const r = parse(s);
  if (!r.ok) throw new Error(`parse(${JSON.stringify(s)}): ${r.error}`);
  return r.selector;
}

function req(key: string, op: Operator, values: string[] = []): Requirement {
  const r = newRequirement(key, op, values);
  if (!r.ok) throw new Error(r.error);
  return r.requirement;
}

function parseError(s: string): string {
  const r = parse(s);
  if (r.ok) throw new Error(`expected ${JSON.stringify(s)} to fail, got ${toString(r.selector)}`);
  return r.error;
}

describe('labels.Parse (TestSelectorParse)', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])('accepts %j and restrings it', (s) => {
    expect(toString(mustParse(s))).toBe(s.replace(/ /g, ''));
  });

  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a'])('rejects %j', (s) => {
    expect(parse(s).ok).toBe(false);
  });

  it('parses deterministically (TestDeterministicParse)', () => {
    expect(toString(mustParse('x=a,a=x'))).toBe(toString(mustParse('a=x,x=a')));
    expect(toString(mustParse('x=a,a=x'))).toBe('a=x,x=a');
  });
});

describe('matching (TestSelectorMatches)', () => {
  const yes: [string, Record<string, string>][] = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['foo=bar', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
  ];
  const no: [string, Record<string, string>][] = [
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['foo=blah', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
  ];
  it.each(yes)('%j matches %j', (s, ls) => expect(matches(mustParse(s), ls)).toBe(true));
  it.each(no)('%j does not match %j', (s, ls) => expect(matches(mustParse(s), ls)).toBe(false));

  it('set-based requirements (TestRequirementSelectorMatching)', () => {
    const sel = (...r: Requirement[]): Selector => addRequirements(everything(), ...r);
    expect(matches(sel(req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])), { x: 'foo', y: 'baz' })).toBe(true);
    expect(matches(sel(req('x', 'in', ['foo']), req('y', 'in', ['alpha'])), { x: 'foo', y: 'baz' })).toBe(false);
    expect(matches(sel(req('x', 'notin', ['']), req('y', 'exists')), { y: '' })).toBe(true);
    expect(matches(sel(req('x', '!'), req('y', 'exists')), { y: '' })).toBe(true);
    expect(matches(sel(req('x', 'notin', ['']), req('y', '!')), { y: '' })).toBe(false);
    expect(matches(sel(req('x', 'in', [''])), { y: 'baz' })).toBe(false);
    expect(matches(sel(req('z', 'gt', ['1'])), { z: '2' })).toBe(true);
    expect(matches(sel(req('z', 'gt', ['1'])), { z: 'v2' })).toBe(false);
  });

  it('Everything matches all, Nothing matches none, and only Everything is empty', () => {
    expect(matches(everything(), { x: 'y' })).toBe(true);
    expect(isEmpty(everything())).toBe(true);
    expect(matches(nothing(), {})).toBe(false);
    expect(isEmpty(nothing())).toBe(false);
    expect(toString(nothing())).toBe('');
  });

  it('SelectorFromSet (TestSetMatches)', () => {
    const ls = { foo: 'bar', baz: 'blah' };
    expect(matches(selectorFromSet({}), ls)).toBe(true);
    expect(matches(selectorFromSet({ foo: 'bar', baz: 'blah' }), ls)).toBe(true);
    expect(matches(selectorFromSet({ foo: 'baz' }), ls)).toBe(false);
    expect(toString(selectorFromSet({ z: '1', a: '2' }))).toBe('a=2,z=1');
    expect(isEmpty(selectorFromSet(null))).toBe(true);
  });
});

describe('lexer (TestLexer, TestLexerSequence)', () => {
  it.each<[string, Token]>([
    ['', 'EndOfStringToken'],
    [',', 'CommaToken'],
    ['notin', 'NotInToken'],
    ['in', 'InToken'],
    ['=', 'EqualsToken'],
    ['==', 'DoubleEqualsToken'],
    ['>', 'GreaterThanToken'],
    ['<', 'LessThanToken'],
    ['!', 'DoesNotExistToken'],
    ['!=', 'NotEqualsToken'],
    ['(', 'OpenParToken'],
    [')', 'ClosedParToken'],
    ['~', 'IdentifierToken'],
    ['||', 'IdentifierToken'],
  ])('%j lexes as %s', (s, t) => {
    const first = lex(s)[0]!;
    expect(first.tok).toBe(t);
    expect(first.literal).toBe(s);
  });

  it.each<[string, Token[]]>([
    ['key in ( value )', ['IdentifierToken', 'InToken', 'OpenParToken', 'IdentifierToken', 'ClosedParToken']],
    ['key notin ( value )', ['IdentifierToken', 'NotInToken', 'OpenParToken', 'IdentifierToken', 'ClosedParToken']],
    ['key in ( value1, value2 )', ['IdentifierToken', 'InToken', 'OpenParToken', 'IdentifierToken', 'CommaToken', 'IdentifierToken', 'ClosedParToken']],
    ['key', ['IdentifierToken']],
    ['!key', ['DoesNotExistToken', 'IdentifierToken']],
    ['()', ['OpenParToken', 'ClosedParToken']],
    ['x in (),y', ['IdentifierToken', 'InToken', 'OpenParToken', 'ClosedParToken', 'CommaToken', 'IdentifierToken']],
    ['== != (), = notin', ['DoubleEqualsToken', 'NotEqualsToken', 'OpenParToken', 'ClosedParToken', 'CommaToken', 'EqualsToken', 'NotInToken']],
    ['key>2', ['IdentifierToken', 'GreaterThanToken', 'IdentifierToken']],
    ['key<1', ['IdentifierToken', 'LessThanToken', 'IdentifierToken']],
  ])('%j lexes as a sequence', (s, toks) => {
    const got = lex(s).map((i) => i.tok);
    expect(got).toEqual([...toks, 'EndOfStringToken']);
  });
});

describe('TestSetSelectorParser', () => {
  const sel = (...r: Requirement[]): Selector => ({ type: 'Requirements', requirements: r });
  it.each<[string, Selector]>([
    ['', sel()],
    ['\rx', sel(req('x', 'exists'))],
    ['this-is-a-dns.domain.com/key-with-dash', sel(req('this-is-a-dns.domain.com/key-with-dash', 'exists'))],
    ['this-is-another-dns.domain.com/key-with-dash in (so,what)', sel(req('this-is-another-dns.domain.com/key-with-dash', 'in', ['so', 'what']))],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', sel(req('0.1.2.domain/99', 'notin', ['10.10.100.1', 'tick.tack.clock']))],
    ['foo  in\t (abc)', sel(req('foo', 'in', ['abc']))],
    ['x notin\n (abc)', sel(req('x', 'notin', ['abc']))],
    ['x  notin\t\t(abc,def)', sel(req('x', 'notin', ['abc', 'def']))],
    ['x in (abc,def)', sel(req('x', 'in', ['abc', 'def']))],
    ['x in (abc,)', sel(req('x', 'in', ['', 'abc']))],
    ['x in ()', sel(req('x', 'in', ['']))],
    ['x notin (abc,,def),bar,z in (),w', sel(req('bar', 'exists'), req('w', 'exists'), req('x', 'notin', ['', 'abc', 'def']), req('z', 'in', ['']))],
    ['x=a', sel(req('x', '=', ['a']))],
    ['x>1', sel(req('x', 'gt', ['1']))],
    ['x<7', sel(req('x', 'lt', ['7']))],
    ['x=a,y!=b', sel(req('x', '=', ['a']), req('y', '!=', ['b']))],
    ['x=a,y!=b,z in (h,i,j)', sel(req('x', '=', ['a']), req('y', '!=', ['b']), req('z', 'in', ['h', 'i', 'j']))],
    ['x notin ( )', sel(req('x', 'notin', ['']))],
    ['x notin (, a)', sel(req('x', 'notin', ['', 'a']))],
    ['a ', sel(req('a', 'exists'))],
    ['a in (x,y,notin, z,in)', sel(req('a', 'in', ['in', 'notin', 'x', 'y', 'z']))],
  ])('%j parses', (s, want) => {
    expect(mustParse(s)).toEqual(want);
  });

  it.each(['x=a||y=b', 'x,,y', ',x,y', 'x nott in (y)', 'a in (xyz),', 'a in (xyz)b notin ()', 'a in (xyz abc)', 'a notin(', 'a (', '('])(
    '%j is rejected',
    (s) => {
      expect(parse(s).ok).toBe(false);
    },
  );

  it('x,y in (a) parses, sorted by key', () => {
    expect(toString(mustParse('x,y in (a)'))).toBe('x,y in (a)');
    expect(toString(mustParse('y in (a),x'))).toBe('x,y in (a)');
    expect(parseError('x,,y')).toBe("found ',', expected: identifier after ','");
  });
});

describe('error messages', () => {
  it('says what it found and what it expected', () => {
    expect(parseError('(')).toBe("found '(', expected: !, identifier, or 'end of string'");
    expect(parseError('a in (xyz),')).toBe("found '', expected: identifier after ','");
    expect(parseError('a in (xyz)b notin ()')).toBe("found 'b', expected: ',' or 'end of string'");
    expect(parseError('a (')).toBe("unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt");
    expect(parseError('a notin(')).toBe("unable to parse requirement: found '', expected: ',', ')' or identifier");
    expect(parseError('a in (xyz abc)')).toBe("unable to parse requirement: found 'abc', expected: ',' or ')'");
    expect(parseError('x nott in (y)')).toBe("unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt");
    expect(parseError('x==a==b')).toBe("found '==', expected: ',' or 'end of string'");
    expect(parseError('!x=a')).toBe("found '=', expected: ',' or 'end of string'");
    expect(parseError('x in a')).toBe("unable to parse requirement: found 'a' expected: '('");
    expect(parseError('x=(')).toBe("unable to parse requirement: found '(', expected: identifier");
    expect(parseError('!')).toBe("unable to parse requirement: found '', expected: identifier");
  });

  it('reports an invalid key as a field error on a nil path', () => {
    expect(parseError('a/b/c')).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
    expect(parseError('-x')).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    expect(parseError('Foo.com/x')).toContain(
      "<nil>: Invalid value: \"Foo.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is",
    );
    expect(parseError(`${'a'.repeat(64)}`)).toContain('name part must be no more than 63 characters');
    expect(parseError('/x')).toContain('prefix part must be non-empty');
  });

  it('reports an invalid value under values[i][key]', () => {
    expect(parseError('x=a||y')).toBe(
      "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
    expect(parseError('x<a')).toBe(`unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`);
    // Two bad values aggregate in brackets.
    expect(parseError('x in (-a,-b)')).toMatch(
      /^unable to parse requirement: \[values\[0\]\[x\]: Invalid value: "-a": .*, values\[1\]\[x\]: Invalid value: "-b": .*\]$/,
    );
  });
});

describe('NewRequirement (TestRequirementConstructor)', () => {
  it.each<[string, Operator, string[], boolean]>([
    ['x', 'in', [], false],
    ['x', 'notin', [], false],
    ['x', 'in', ['foo'], true],
    ['x', 'notin', ['foo'], true],
    ['x', 'exists', [], true],
    ['x', '!', [], true],
    ['1foo', 'in', ['bar'], true],
    ['1234', 'in', ['bar'], true],
    ['y', 'gt', ['1'], true],
    ['z', 'lt', ['6'], true],
    ['foo', 'gt', ['bar'], false],
    ['barz', 'lt', ['blah'], false],
    ['a'.repeat(254), 'exists', [], false],
  ])('%j %s %j → ok=%s', (key, op, vals, ok) => {
    expect(newRequirement(key, op, vals).ok).toBe(ok);
  });

  it('names the rule broken', () => {
    expect(newRequirement('x', 'in', [])).toEqual({
      ok: false,
      error: `values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`,
    });
    expect(newRequirement('x', '=', ['a', 'b'])).toEqual({
      ok: false,
      error: 'values: Invalid value: []string{"a", "b"}: exact-match compatibility requires one single value',
    });
    expect(newRequirement('x', 'exists', ['a'])).toEqual({
      ok: false,
      error: 'values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist',
    });
    expect(newRequirement('x', 'bogus' as Operator, [])).toEqual({
      ok: false,
      error: 'operator: Unsupported value: "bogus": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    });
    expect(newRequirement('-k', '=', ['v'])).toMatchObject({ ok: false, error: expect.stringMatching(/^key: Invalid value: "-k": name part must consist/) });
  });
});

describe('String() (TestToString)', () => {
  it('prints the canonical form', () => {
    const s = (...r: Requirement[]) => toString({ type: 'Requirements', requirements: r });
    expect(s(req('x', 'in', ['abc', 'def']), req('y', 'notin', ['jkl']), req('z', 'exists'))).toBe('x in (abc,def),y notin (jkl),z');
    expect(s(req('x', 'notin', ['abc', 'def']), req('y', '!=', ['jkl']), req('z', '!'))).toBe('x notin (abc,def),y!=jkl,!z');
    expect(s(req('x', 'notin', ['abc']), req('y', 'in', ['jkl', 'mno']), req('z', 'notin', ['']))).toBe('x notin (abc),y in (jkl,mno),z notin ()');
    expect(s(req('x', '=', ['abc']), req('y', '==', ['jkl']), req('z', '!=', ['a']), req('z', 'exists'))).toBe('x=abc,y==jkl,z!=a,z');
    expect(s(req('x', 'gt', ['2']), req('y', 'lt', ['8']), req('z', 'exists'))).toBe('x>2,y<8,z');
    // Values print sorted without reordering the requirement itself (safeSort).
    const r = req('x', 'in', ['b', 'a']);
    expect(s(r)).toBe('x in (a,b)');
    expect(r.values).toEqual(['b', 'a']);
  });

  it('Add sorts by key (TestAdd)', () => {
    const a = addRequirements(everything(), req('key', 'in', ['value']));
    expect(a).toEqual({ type: 'Requirements', requirements: [{ key: 'key', operator: 'in', values: ['value'] }] });
    const b = addRequirements(a, req('key2', '=', ['value2']));
    expect(toString(b)).toBe('key in (value),key2=value2');
    expect(toString(addRequirements(b, req('a', 'exists')))).toBe('a,key in (value),key2=value2');
    expect(addRequirements(nothing(), req('a', 'exists'))).toEqual(nothing());
  });

  it('RequiresExactMatch', () => {
    expect(requiresExactMatch(mustParse('a=b,c in (d)'), 'a')).toBe('b');
    expect(requiresExactMatch(mustParse('a=b,c in (d)'), 'c')).toBe('d');
    expect(requiresExactMatch(mustParse('c in (d,e)'), 'c')).toBeUndefined();
    expect(requiresExactMatch(mustParse('a!=b'), 'a')).toBeUndefined();
  });
});

describe('metav1.LabelSelectorAsSelector', () => {
  it('null selects nothing, {} everything', () => {
    expect(labelSelectorAsSelector(null)).toEqual({ ok: true, selector: nothing() });
    expect(labelSelectorAsSelector({})).toEqual({ ok: true, selector: everything() });
    expect(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] })).toEqual({ ok: true, selector: everything() });
  });

  it('combines matchLabels and matchExpressions, sorted by key', () => {
    const r = labelSelectorAsSelector({
      matchLabels: { app: 'web', tier: 'front' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'Exists' },
        { key: 'arch', operator: 'NotIn', values: ['arm'] },
      ],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(toString(r.selector)).toBe('app=web,arch notin (arm),!canary,env in (dev,prod),tier=front,zone');
    expect(matches(r.selector, { app: 'web', tier: 'front', env: 'prod', zone: 'a' })).toBe(true);
    expect(matches(r.selector, { app: 'web', tier: 'front', env: 'prod', zone: 'a', canary: 'y' })).toBe(false);
  });

  it('returns upstream errors', () => {
    expect(labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toEqual({
      ok: false,
      error: '"Gt" is not a valid pod selector operator',
    });
    expect(labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toEqual({
      ok: false,
      error: "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    });
    const bad = labelSelectorAsSelector({ matchLabels: { app: 'no good' } });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^values\[0\]\[app\]: Invalid value: "no good": a valid label must be/);
  });

  it('FormatLabelSelector and FormatLabels', () => {
    expect(formatLabelSelector(null)).toBe('<none>');
    expect(formatLabelSelector({})).toBe('<none>');
    expect(formatLabelSelector({ matchLabels: { b: '2', a: '1' } })).toBe('a=1,b=2');
    expect(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] })).toBe('<error>');
    expect(formatLabels({})).toBe('<none>');
    expect(formatLabels(undefined)).toBe('<none>');
    // labels.Set.String sorts the "k=v" strings, so "a.b=" comes before "a=".
    expect(formatLabels({ a: '1', 'a.b': '2' })).toBe('a.b=2,a=1');
  });
});

describe('snapshots', () => {
  it('a parsed selector survives cloneState and keeps matching the same way', () => {
    const sel = mustParse('app in (web,api),!canary,tier=front,n>2');
    const copy = cloneState(sel);
    expect(copy).toEqual(sel);
    expect(copy).not.toBe(sel);
    const sets: Record<string, string>[] = [
      { app: 'web', tier: 'front', n: '3' },
      { app: 'web', tier: 'front', n: '2' },
      { app: 'db', tier: 'front', n: '9' },
      {},
    ];
    expect(sets.map((s) => matches(copy, s))).toEqual(sets.map((s) => matches(sel, s)));
    expect(toString(copy)).toBe(toString(sel));
  });
});
