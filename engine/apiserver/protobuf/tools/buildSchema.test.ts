import { describe, expect, it } from 'vitest';
import { schema } from '../schema';
import { Writer } from '../wire';
import { SERVED_PACKAGES, buildSchema } from './buildSchema';
import { parseFileDescriptor } from './descriptor';
import type { GoNamedType } from './goTypes';

describe('the committed schema table', () => {
  it('covers every served group and apimachinery', () => {
    expect(Object.keys(schema.packages).sort()).toEqual([...SERVED_PACKAGES].sort());
    expect(Object.keys(schema.messages).length).toBeGreaterThan(450);
  });

  it('names fields by their Go JSON tags, which can differ from the proto names', () => {
    const f = (msg: string, num: number) => schema.messages[msg]!.f.find((x) => x[0] === num);
    expect(f('k8s.io.api.authentication.v1.BoundObjectReference', 4)?.[1]).toBe('uid'); // proto: uID
    expect(f('k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration', 2)?.[1]).toBe('webhooks'); // proto: Webhooks
    expect(f('k8s.io.api.core.v1.Volume', 2)).toEqual([2, 'volumeSource', 'k8s.io.api.core.v1.VolumeSource', 'i', 'VolumeSource']);
    expect(f('k8s.io.api.core.v1.ConfigMap', 4)).toEqual([4, 'immutable', 'bool', 'no', 'Immutable']);
    expect(f('k8s.io.api.core.v1.Container', 1)).toEqual([1, 'name', 'string', '', 'Name']);
    expect(f('k8s.io.api.core.v1.Secret', 2)).toEqual([2, 'data', 'bytes', 'mo', 'Data']);
  });
});

/** A FileDescriptorProto by hand: package demo.v1, message Thing { optional string name = 1 [(gogoproto.customname) = "TheName", (gogoproto.nullable) = false]; map<string,int32> counts = 2; repeated Thing kids = 3; } */
function demoDescriptor(): Uint8Array {
  const msg = (build: (w: Writer) => void): Uint8Array => {
    const w = new Writer();
    build(w);
    return w.finish();
  };
  const str = (w: Writer, n: number, s: string) => {
    w.tag(n, 2);
    w.string(s);
  };
  const int = (w: Writer, n: number, v: number) => {
    w.tag(n, 0);
    w.uvarint(v);
  };
  const opts = msg((w) => {
    w.tag(65001, 0);
    w.uvarint(0);
    str(w, 65004, 'TheName');
  });
  const name = msg((w) => {
    str(w, 1, 'name');
    int(w, 3, 1);
    int(w, 4, 1);
    int(w, 5, 9);
    w.tag(8, 2);
    w.bytes(opts);
  });
  const counts = msg((w) => {
    str(w, 1, 'counts');
    int(w, 3, 2);
    int(w, 4, 3);
    int(w, 5, 11);
    str(w, 6, '.demo.v1.Thing.CountsEntry');
  });
  const kids = msg((w) => {
    str(w, 1, 'kids');
    int(w, 3, 3);
    int(w, 4, 3);
    int(w, 5, 11);
    str(w, 6, '.demo.v1.Thing');
  });
  const entry = msg((w) => {
    str(w, 1, 'CountsEntry');
    for (const [n, fname, t] of [[1, 'key', 9], [2, 'value', 5]] as const) {
      w.tag(2, 2);
      w.bytes(msg((f) => { str(f, 1, fname); int(f, 3, n); int(f, 4, 1); int(f, 5, t); }));
    }
    w.tag(7, 2);
    w.bytes(msg((o) => int(o, 7, 1)));
  });
  const thing = msg((w) => {
    str(w, 1, 'Thing');
    for (const f of [name, counts, kids]) {
      w.tag(2, 2);
      w.bytes(f);
    }
    w.tag(3, 2);
    w.bytes(entry);
  });
  return msg((w) => {
    str(w, 1, 'demo/v1/generated.proto');
    str(w, 2, 'demo.v1');
    w.tag(4, 2);
    w.bytes(thing);
    w.tag(8, 2);
    w.bytes(msg((o) => str(o, 11, 'example.com/demo/v1')));
  });
}

describe('buildSchema', () => {
  it('joins a descriptor with the Go struct tags', () => {
    const file = parseFileDescriptor(demoDescriptor());
    expect(file).toMatchObject({ name: 'demo/v1/generated.proto', package: 'demo.v1', goPackage: 'example.com/demo/v1' });
    const go: GoNamedType[] = [
      {
        pkgPath: 'example.com/demo/v1',
        name: 'Thing',
        kind: 25,
        fields: [
          { name: 'TypeMeta', tag: 'json:",inline"', embedded: true },
          { name: 'Kids', tag: 'json:"children,omitempty" protobuf:"bytes,3,rep,name=kids"', embedded: false },
          { name: 'TheName', tag: 'json:"name" protobuf:"bytes,1,opt,name=name"', embedded: false },
          { name: 'Counts', tag: 'json:"counts,omitempty" protobuf:"bytes,2,rep,name=counts"', embedded: false },
        ],
      },
    ];
    const { schema: s, warnings } = buildSchema([file], go, ['demo.v1']);
    expect(s.messages['demo.v1.Thing']).toEqual({
      f: [
        [3, 'children', 'demo.v1.Thing', 'ro', 'Kids'],
        [1, 'name', 'string', '', 'TheName'],
        [2, 'counts', 'int32', 'mo', 'Counts'],
      ],
      k: 1,
    });
    expect(warnings).toEqual(['demo.v1.Thing.kids: JSON name children']);
  });
});
