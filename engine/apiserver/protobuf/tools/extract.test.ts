import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVED_PACKAGES, buildSchema, formatSchema, readDescriptors } from './extract';
import { readGoTypes } from './goTypes';
import type { SchemaFile } from '../schema';

const KUBECTL = '/usr/bin/kubectl';
const committedPath = join(__dirname, '..', 'schema.generated.json');
const committed = JSON.parse(readFileSync(committedPath, 'utf8')) as SchemaFile;

describe('the committed schema table', () => {
  it('covers every served group and apimachinery', () => {
    expect(Object.keys(committed.packages).sort()).toEqual([...SERVED_PACKAGES].sort());
    expect(Object.keys(committed.messages).length).toBeGreaterThan(450);
  });

  it('names fields by their Go JSON tags, which can differ from the proto names', () => {
    const f = (msg: string, num: number) => committed.messages[msg]!.f.find((x) => x[0] === num);
    expect(f('k8s.io.api.authentication.v1.BoundObjectReference', 4)?.[1]).toBe('uid'); // proto: uID
    expect(f('k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration', 2)?.[1]).toBe('webhooks'); // proto: Webhooks
    expect(f('k8s.io.api.core.v1.Volume', 2)).toEqual([2, 'volumeSource', 'k8s.io.api.core.v1.VolumeSource', 'i', 'VolumeSource']);
    expect(f('k8s.io.api.core.v1.ConfigMap', 4)).toEqual([4, 'immutable', 'bool', 'no', 'Immutable']);
    expect(f('k8s.io.api.core.v1.Container', 1)).toEqual([1, 'name', 'string', '', 'Name']);
    expect(f('k8s.io.api.core.v1.Secret', 2)).toEqual([2, 'data', 'bytes', 'mo', 'Data']);
  });
});

describe.skipIf(!existsSync(KUBECTL))('extraction from the kubectl binary', () => {
  it('reproduces the committed table byte for byte', () => {
    const bin = new Uint8Array(readFileSync(realpathSync(KUBECTL)));
    const { schema } = buildSchema(readDescriptors(bin), readGoTypes(bin), SERVED_PACKAGES);
    expect(formatSchema(schema)).toBe(readFileSync(committedPath, 'utf8'));
  }, 30_000);
});
