import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeK8sProtobuf, encodeK8sProtobuf, PROTOBUF_PREFIX } from './codec';
import { KUBECTL_CAPTURES } from './testdata/kubectlCaptures';
import { base64DecodeLenient } from '../../sim/base64';
import { Reader, Writer } from './wire';

// Well-formed Unicode only: a lone surrogate has no UTF-8 form, so it cannot survive any
// protobuf (or Go) round trip; "__proto__" is not a plain JS object key.
const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const dict = fc.dictionary(text.filter((k) => k !== '__proto__'), text, { maxKeys: 4 });

/** A ConfigMap in the shape Go's encoding/json writes (so a round trip must return it unchanged). */
const configMap = fc.record({ name: fc.string({ minLength: 1, maxLength: 10 }), labels: dict, data: dict, immutable: fc.option(fc.boolean(), { nil: undefined }), generation: fc.nat({ max: Number.MAX_SAFE_INTEGER }) }).map(({ name, labels, data, immutable, generation }) => {
  const metadata: Record<string, unknown> = { name };
  if (generation !== 0) metadata.generation = generation;
  metadata.creationTimestamp = null;
  if (Object.keys(labels).length > 0) metadata.labels = labels;
  const obj: Record<string, unknown> = { kind: 'ConfigMap', apiVersion: 'v1', metadata };
  if (immutable !== undefined) obj.immutable = immutable;
  if (Object.keys(data).length > 0) obj.data = data;
  return obj;
});

describe('codec properties', () => {
  it('round-trips any Go-shaped ConfigMap', () => {
    fc.assert(
      fc.property(configMap, (cm) => {
        const r = decodeK8sProtobuf(encodeK8sProtobuf(cm));
        expect(r).toEqual({ ok: true, object: cm });
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips int32 and safe int64 values, negative ones included', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (value, grace) => {
        const pc = { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', metadata: { name: 'p', deletionGracePeriodSeconds: grace, creationTimestamp: null }, value };
        const r = decodeK8sProtobuf(encodeK8sProtobuf(pc));
        expect(r.ok && r.object).toEqual(pc);
        const w = new Writer();
        w.varint(grace);
        expect(new Reader(w.finish()).int64()).toBe(grace);
      }),
      { numRuns: 300 },
    );
  });

  it('answers any byte string with a value, never an exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (tail) => {
        const bytes = new Uint8Array([...PROTOBUF_PREFIX, ...tail]);
        const r = decodeK8sProtobuf(bytes);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('answers corrupted kubectl bodies with a value, never an exception', () => {
    const bodies = KUBECTL_CAPTURES.map((c) => base64DecodeLenient(c.body)!);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bodies.length - 1 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), (i, at, byte, cut) => {
        const b = bodies[i]!.slice();
        b[4 + (at % (b.length - 4))] = byte;
        const r = decodeK8sProtobuf(b.subarray(0, 4 + (cut % (b.length - 3))));
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});
