// Random (well-typed) requests through the gateway: every one gets an answer
// in virtual time (200 with a decodable body, or a gRPC error), and neither
// the engine nor the gateway throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineHost } from '../host';
import { fromGatewayJson, type JsonValueOut } from './codec';
import { EtcdGateway } from './gateway';
import { UNARY_ROUTES } from './routes';
import type { FieldSpec, MessageSpec } from './schema';

const KEYS = ['a', 'b', 'c', 'a/1', ''].map((k) => Buffer.from(k).toString('base64')).concat(['AA==']);
const INTS = [-1, 0, 1, 2, 3, 5, 100, 2 ** 40];

function fieldValue(f: FieldSpec, depth: number): fc.Arbitrary<unknown> {
  const t = f.type;
  const one: fc.Arbitrary<unknown> =
    t.kind === 'message'
      ? depth > 2
        ? fc.constant({})
        : messageArb(t.message(), depth + 1)
      : t.kind === 'enum'
        ? fc.oneof(fc.constantFrom(...t.enum.values), fc.integer({ min: 0, max: t.enum.values.length - 1 }))
        : t.kind === 'bytes'
          ? fc.constantFrom(...KEYS)
          : t.kind === 'bool'
            ? fc.boolean()
            : t.kind === 'string'
              ? fc.string({ maxLength: 3 })
              : fc.oneof(fc.constantFrom(...INTS), fc.constantFrom(...INTS).map(String));
  return f.repeated ? fc.array(one, { maxLength: 3 }) : one;
}

function messageArb(spec: MessageSpec, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const entries: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of spec.fields) entries[f.proto] = fieldValue(f, depth);
  return fc.record(entries, { requiredKeys: [] });
}

const routes = [...UNARY_ROUTES.entries()];

describe('gateway under random requests', () => {
  it('answers every well-typed request without throwing', async () => {
    const host = new EngineHost({ seed: 77, etcdMembers: 3, autoStart: false });
    const gw = new EtcdGateway(host);
    await host.advanceBy(3000);
    const arb = fc.constantFrom(...routes).chain(([path, route]) => messageArb(route.request).map((body) => ({ path, route, body })));
    await fc.assert(
      fc.asyncProperty(arb, async ({ path, route, body }) => {
        let settled = false;
        const p = gw.unary(route, JSON.stringify(body)).finally(() => (settled = true));
        for (let i = 0; i < 400 && !settled; i++) {
          await host.advanceBy(50);
          await Promise.resolve();
        }
        expect(settled, `${path} ${JSON.stringify(body)} got no answer`).toBe(true);
        const a = await p;
        if (a.status === 200) expect(fromGatewayJson(a.body as JsonValueOut, route.response).ok).toBe(true);
        else expect(a.body).toMatchObject({ error: expect.any(String), code: expect.any(Number), message: expect.any(String) });
      }),
      { numRuns: 200, seed: 4242 },
    );
    // Still healthy afterwards.
    const put = gw.unary(UNARY_ROUTES.get('/v3/kv/put')!, '{"key":"b2s="}');
    await host.advanceBy(200);
    expect((await put).status).toBe(200);
  });
});
