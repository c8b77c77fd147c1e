import { describe, expect, it } from 'vitest';
import { JsonPath, JsonPathError, relaxedJsonPathExpression } from './jsonpath';

const list = {
  kind: 'List',
  items: [
    { metadata: { name: 'a', labels: { app: 'web' } }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], restarts: 2 } },
    { metadata: { name: 'b', labels: {} }, status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }], restarts: 0.5 } },
  ],
};

function run(t: string, data: unknown = list, opts: { allowMissing?: boolean; json?: boolean } = {}): string {
  const jp = new JsonPath();
  jp.allowMissingKeys = opts.allowMissing ?? true;
  jp.outputJson = opts.json ?? false;
  jp.parse(t);
  return jp.execute(data);
}

describe('JsonPath (client-go util/jsonpath)', () => {
  it('joins multiple results with spaces and prints maps and lists as compact JSON', () => {
    expect(run('{.items[*].metadata.name}')).toBe('a b');
    expect(run('{.items[0].metadata.labels}')).toBe('{"app":"web"}');
    expect(run('{.items[*].status.restarts}')).toBe('2 0.5');
    expect(run('{.items[0].status.conditions}')).toBe('[{"status":"True","type":"Ready"}]');
  });

  it('ranges, filters, unions, slices and recursive descent', () => {
    expect(run('{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}')).toBe('a\tRunning\nb\tPending\n');
    expect(run('{.items[?(@.status.phase=="Running")].metadata.name}')).toBe('a');
    expect(run("{.items[?(@.status.conditions[0].status!='True')].metadata.name}")).toBe('b');
    expect(run('{.items[*].metadata.labels.app}')).toBe('web');
    expect(run('{.items[0,1].metadata.name}')).toBe('a b');
    expect(() => run('{.items[0].metadata.name,.kind}')).toThrow("unrecognized character in action: U+002C ','");
    expect(run('{.items[-1:].metadata.name}')).toBe('b');
    expect(run('{..phase}')).toBe('Running Pending');
    expect(run('{.items[?(@.metadata.labels.app)].metadata.name}')).toBe('a');
    expect(run("{.items[0].metadata['name']}")).toBe('a');
  });

  it('wraps results in a JSON array for jsonpath-as-json', () => {
    expect(run('{.items[*].metadata.name}', list, { json: true })).toBe('[\n    "a",\n    "b"\n]\n');
  });

  it('reports errors with upstream wording', () => {
    expect(() => run('{.items[5]}')).toThrow(new JsonPathError('array index out of bounds: index 5, length 2'));
    expect(() => run('{.nope}', list, { allowMissing: false })).toThrow(new JsonPathError('nope is not found'));
    expect(() => run('{.items[0')).toThrow(new JsonPathError('unterminated array'));
    expect(() => run('{.a')).toThrow(new JsonPathError('unclosed action'));
    expect(() => run('{.items[?(@.status.phase==Running)]}')).toThrow(new JsonPathError('unrecognized identifier Running'));
  });

  it('relaxes custom-columns and sort-by paths', () => {
    expect(relaxedJsonPathExpression('.metadata.name')).toBe('{.metadata.name}');
    expect(relaxedJsonPathExpression('metadata.name')).toBe('{.metadata.name}');
    expect(relaxedJsonPathExpression('{.a}')).toBe('{.a}');
    expect(() => relaxedJsonPathExpression('{a}{b}')).toThrow();
  });
});
