// Server warnings reach kubectl's stderr as client-go prints them: each
// `299 - "text"` header once per run as `Warning: text`.
import { describe, expect, it } from 'vitest';
import { RestClient, warningsOf } from './rest';
import type { KubectlEnv } from '../types';

const res = (warning?: string) => ({ status: 200, headers: { 'content-type': 'application/json', ...(warning ? { warning } : {}) }, body: '{}' });

describe('server warnings', () => {
  it('reads 299 warnings, unquoting their text, and skips other codes and malformed ones', () => {
    expect(warningsOf(res())).toEqual([]);
    expect(warningsOf(res('299 - "v1 ComponentStatus is deprecated in v1.19+"'))).toEqual(['v1 ComponentStatus is deprecated in v1.19+']);
    expect(warningsOf(res('299 - "a \\"quoted\\" word"\n199 - "not this"\n299 - unquoted\n299 - "second"'))).toEqual(['a "quoted" word', 'second']);
  });

  it('hands each text to the writer once per client (kubectl dedupes within a run)', async () => {
    const seen: string[] = [];
    const env = { transport: { request: async () => res('299 - "one"\n299 - "two"'), watch: () => ({ cancel() {}, done: Promise.resolve(null) }) } } as unknown as KubectlEnv;
    const c = new RestClient(env, {}, 'kubectl get', (w) => seen.push(w));
    await c.raw('GET', '/api/v1/componentstatuses');
    await c.raw('GET', '/api/v1/componentstatuses');
    expect(seen).toEqual(['one', 'two']);
  });
});
