// A test schema shaped like upstream's MergeItem (strategicpatch/patch_test.go):
// every field listed, so unknown keys are lookup errors as with a Go struct.
import type { FieldPatchMeta, StructPatchMeta } from './patchMeta';

const simpleMap: StructPatchMeta = { name: 'map', kind: 'map', fields: {} };
const mergeItemFields: Record<string, FieldPatchMeta> = {};
const retainKeysFields: Record<string, FieldPatchMeta> = {};

export const MergeItem: StructPatchMeta = { name: 'MergeItem', complete: true, fields: mergeItemFields };
const RetainKeysMergeItem: StructPatchMeta = { name: 'RetainKeysMergeItem', complete: true, fields: retainKeysFields };

Object.assign(mergeItemFields, {
  name: {},
  value: {},
  other: {},
  mergingList: { strategy: 'merge', mergeKey: 'name', elem: MergeItem },
  nonMergingList: { elem: MergeItem },
  mergingIntList: { strategy: 'merge', elemKind: 'int' },
  nonMergingIntList: { elemKind: 'int' },
  mergeItemPtr: { strategy: 'merge', mergeKey: 'name', elem: MergeItem },
  simpleMap: { elem: simpleMap },
  replacingItem: { strategy: 'replace' },
  retainKeysMap: { strategy: 'retainKeys', elem: RetainKeysMergeItem },
  retainKeysMergingList: { strategy: 'merge,retainKeys', mergeKey: 'name', elem: MergeItem },
} satisfies Record<string, FieldPatchMeta>);

Object.assign(retainKeysFields, {
  name: {},
  value: {},
  other: {},
  simpleMap: { elem: simpleMap },
  mergingIntList: { strategy: 'merge', elemKind: 'int' },
  mergingList: { strategy: 'merge', mergeKey: 'name', elem: MergeItem },
  nonMergingList: { elem: MergeItem },
} satisfies Record<string, FieldPatchMeta>);
