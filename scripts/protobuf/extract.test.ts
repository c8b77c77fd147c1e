import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_PATH, extractSchemaText } from './extract';

const KUBECTL = '/usr/bin/kubectl';

describe.skipIf(!existsSync(KUBECTL))('protobuf table extraction from the kubectl binary', () => {
  it('reproduces the committed engine/apiserver/protobuf/schema.generated.json byte for byte', () => {
    const r = extractSchemaText(KUBECTL);
    expect(r.descriptors).toBeGreaterThan(60);
    expect(r.text).toBe(readFileSync(SCHEMA_PATH, 'utf8'));
  }, 30_000);
});
