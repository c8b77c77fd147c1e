// Strategic merge patch against the facts of upstream's test tables
// (strategicpatch/patch_test.go), written out again as our own fixtures, on a
// MergeItem-shaped schema.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { JsonObject } from '../types';
import { applyStrategicMergePatch, createThreeWayMergePatch, createTwoWayMergePatch, mergingMapsHaveConflicts } from './strategicMerge';
import { MergeItem } from './testSchema';

interface Case {
  description: string;
  original?: JsonObject;
  twoWay?: JsonObject;
  modified?: JsonObject;
  twoWayResult?: JsonObject;
  current?: JsonObject;
  threeWay?: JsonObject;
  result?: JsonObject;
}

function apply(original: JsonObject, patch: JsonObject): JsonObject {
  const r = applyStrategicMergePatch(original, patch, MergeItem);
  if (!r.ok) throw new Error(`apply failed: ${r.error}`);
  return r.value;
}

function runCase(c: Case): void {
  const original = c.original ?? {};
  const modified = c.modified ?? {};
  if (c.twoWay) {
    const two = createTwoWayMergePatch(original, modified, MergeItem);
    expect(two).toEqual({ ok: true, value: c.twoWay });
    expect(apply(original, c.twoWay)).toEqual(c.twoWayResult ?? modified);
  }
  if (c.threeWay) {
    const three = createThreeWayMergePatch(original, modified, c.current ?? {}, MergeItem, true);
    expect(three).toEqual({ ok: true, value: c.threeWay });
    expect(apply(c.current ?? {}, c.threeWay)).toEqual(c.result);
  }
}

// Cases generated both ways: two-way and three-way patches and their results.
const createCases = parse(`
- description: nil original
  twoWay: {name: 1, value: 1}
  modified: {name: 1, value: 1}
  current: {name: 1, other: a}
  threeWay: {value: 1}
  result: {name: 1, value: 1, other: a}
- description: add field to map with conflict
  original: {name: 1}
  twoWay: {value: 1}
  modified: {name: 1, value: 1}
  current: {name: a, other: a}
  threeWay: {name: 1, value: 1}
  result: {name: 1, value: 1, other: a}
- description: add field and delete field from map
  original: {name: 1}
  twoWay: {name: null, value: 1}
  modified: {value: 1}
  current: {name: 1, other: a}
  threeWay: {name: null, value: 1}
  result: {value: 1, other: a}
- description: delete field from nested map with conflict
  original: {simpleMap: {key1: 1, key2: 1}}
  twoWay: {simpleMap: {key2: null}}
  modified: {simpleMap: {key1: 1}}
  current: {simpleMap: {key1: a, key2: 1, other: a}}
  threeWay: {simpleMap: {key1: 1, key2: null}}
  result: {simpleMap: {key1: 1, other: a}}
- description: add field and delete all fields from map with conflict
  original: {name: 1, value: 1}
  twoWay: {name: null, value: null, other: a}
  modified: {other: a}
  current: {name: 1, value: 1, other: b}
  threeWay: {name: null, value: null, other: a}
  result: {other: a}
- description: replace list of scalars with conflict
  original: {nonMergingIntList: [1, 2]}
  twoWay: {nonMergingIntList: [2, 3]}
  modified: {nonMergingIntList: [2, 3]}
  current: {nonMergingIntList: [1, 4]}
  threeWay: {nonMergingIntList: [2, 3]}
  result: {nonMergingIntList: [2, 3]}
- description: delete all maps from merging list with conflict
  original: {mergingList: [{name: 1}, {name: 2}]}
  twoWay: {mergingList: [{name: 1, $patch: delete}, {name: 2, $patch: delete}]}
  modified: {mergingList: []}
  current: {mergingList: [{name: 1, other: a}, {name: 2, other: b}]}
  threeWay: {mergingList: [{name: 1, $patch: delete}, {name: 2, $patch: delete}]}
  result: {mergingList: []}
- description: merge empty merging lists
  original: {mergingList: []}
  twoWay: {}
  modified: {mergingList: []}
  current: {mergingList: []}
  threeWay: {}
  result: {mergingList: []}
- description: defined null values should propagate overwrite current fields
  original: {name: 2}
  twoWay: {name: 1, value: 1, other: null}
  twoWayResult: {name: 1, value: 1}
  modified: {name: 1, value: 1, other: null}
  current: {name: a, other: a}
  threeWay: {name: 1, value: 1, other: null}
  result: {name: 1, value: 1}
- description: retainKeys map with no change should not be present
  original: {name: a, retainKeysMap: {name: foo}}
  current: {name: a, other: c, retainKeysMap: {name: foo}}
  modified: {name: a, value: b, retainKeysMap: {name: foo}}
  twoWay: {value: b}
  threeWay: {value: b}
  result: {name: a, value: b, other: c, retainKeysMap: {name: foo}}
`) as Case[];

// Cases with explicit list orders (upstream's raw cases).
const rawCases = parse(`
- description: delete items in lists of scalars
  original: {mergingIntList: [1, 2, 3]}
  twoWay: {$setElementOrder/mergingIntList: [1, 2], $deleteFromPrimitiveList/mergingIntList: [3]}
  modified: {mergingIntList: [1, 2]}
  current: {mergingIntList: [1, 2, 3, 4]}
  threeWay: {$setElementOrder/mergingIntList: [1, 2], $deleteFromPrimitiveList/mergingIntList: [3]}
  result: {mergingIntList: [1, 2, 4]}
- description: add and delete items in lists of scalars
  original: {mergingIntList: [1, 2, 3]}
  twoWay: {$setElementOrder/mergingIntList: [1, 2, 4], $deleteFromPrimitiveList/mergingIntList: [3], mergingIntList: [4]}
  modified: {mergingIntList: [1, 2, 4]}
  current: {mergingIntList: [1, 2, 3, 4]}
  threeWay: {$setElementOrder/mergingIntList: [1, 2, 4], $deleteFromPrimitiveList/mergingIntList: [3]}
  result: {mergingIntList: [1, 2, 4]}
- description: merge lists of maps
  original: {mergingList: [{name: 1}, {name: 2, value: 2}]}
  twoWay:
    $setElementOrder/mergingList: [{name: 4}, {name: 1}, {name: 2}, {name: 3}]
    mergingList: [{name: 4, value: 4}, {name: 3, value: 3}]
  modified: {mergingList: [{name: 4, value: 4}, {name: 1}, {name: 2, value: 2}, {name: 3, value: 3}]}
  current: {mergingList: [{name: 1, other: a}, {name: 2, value: 2, other: b}]}
  threeWay:
    $setElementOrder/mergingList: [{name: 4}, {name: 1}, {name: 2}, {name: 3}]
    mergingList: [{name: 4, value: 4}, {name: 3, value: 3}]
  result: {mergingList: [{name: 4, value: 4}, {name: 1, other: a}, {name: 2, value: 2, other: b}, {name: 3, value: 3}]}
- description: merge lists of maps with conflict
  original: {mergingList: [{name: 1}, {name: 2, value: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}, {name: 3}], mergingList: [{name: 3, value: 3}]}
  modified: {mergingList: [{name: 1}, {name: 2, value: 2}, {name: 3, value: 3}]}
  current: {mergingList: [{name: 1, other: a}, {name: 2, value: 3, other: b}]}
  threeWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}, {name: 3}], mergingList: [{name: 2, value: 2}, {name: 3, value: 3}]}
  result: {mergingList: [{name: 1, other: a}, {name: 2, value: 2, other: b}, {name: 3, value: 3}]}
- description: add field to map in merging list with conflict
  original: {mergingList: [{name: 1}, {name: 2, value: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}], mergingList: [{name: 1, value: 1}]}
  modified: {mergingList: [{name: 1, value: 1}, {name: 2, value: 2}]}
  current: {mergingList: [{name: 1, other: a}, {name: 3, value: 2, other: b}]}
  threeWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}], mergingList: [{name: 1, value: 1}, {name: 2, value: 2}]}
  result: {mergingList: [{name: 1, value: 1, other: a}, {name: 2, value: 2}, {name: 3, value: 2, other: b}]}
- description: add an item that already exists in current object in merging list
  original: {mergingList: [{name: 1, value: a}, {name: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}, {name: 3}], mergingList: [{name: 3}]}
  modified: {mergingList: [{name: 1, value: a}, {name: 2}, {name: 3}]}
  current: {mergingList: [{name: 1, value: a, other: x}, {name: 2}, {name: 3}]}
  threeWay: {}
  result: {mergingList: [{name: 1, value: a, other: x}, {name: 2}, {name: 3}]}
- description: delete missing map from merging list with conflict
  original: {mergingList: [{name: 1}, {name: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 2}], mergingList: [{name: 1, $patch: delete}]}
  modified: {mergingList: [{name: 2}]}
  current: {mergingList: [{name: 3, other: a}]}
  threeWay: {$setElementOrder/mergingList: [{name: 2}], mergingList: [{name: 2}, {name: 1, $patch: delete}]}
  result: {mergingList: [{name: 2}, {name: 3, other: a}]}
- description: add map and delete map from merging list
  original: {mergingList: [{name: 1}, {name: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 2}, {name: 3}], mergingList: [{name: 3}, {name: 1, $patch: delete}]}
  modified: {mergingList: [{name: 2}, {name: 3}]}
  current: {mergingList: [{name: 1}, {name: 2, other: b}, {name: 4, other: c}]}
  threeWay: {$setElementOrder/mergingList: [{name: 2}, {name: 3}], mergingList: [{name: 3}, {name: 1, $patch: delete}]}
  result: {mergingList: [{name: 2, other: b}, {name: 4, other: c}, {name: 3}]}
- description: add map and delete map from merging list with conflict
  original: {mergingList: [{name: 1}, {name: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 2}, {name: 3}], mergingList: [{name: 3}, {name: 1, $patch: delete}]}
  modified: {mergingList: [{name: 2}, {name: 3}]}
  current: {mergingList: [{name: 1, other: a}, {name: 4, other: c}]}
  threeWay: {$setElementOrder/mergingList: [{name: 2}, {name: 3}], mergingList: [{name: 2}, {name: 3}, {name: 1, $patch: delete}]}
  result: {mergingList: [{name: 4, other: c}, {name: 2}, {name: 3}]}
- description: delete missing field from map in merging list with conflict
  original: {mergingList: [{name: 1, value: 1}, {name: 2, value: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}], mergingList: [{name: 1, value: null}]}
  modified: {mergingList: [{name: 1}, {name: 2, value: 2}]}
  current: {mergingList: [{name: 1, other: a}, {name: 2, other: b}]}
  threeWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}], mergingList: [{name: 1, value: null}, {name: 2, value: 2}]}
  result: {mergingList: [{name: 1, other: a}, {name: 2, value: 2, other: b}]}
- description: replace non merging list nested in merging list with deletion conflict
  original: {mergingList: [{name: 1, nonMergingList: [{name: 1}, {name: 2, value: 2}]}, {name: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}], mergingList: [{name: 1, nonMergingList: [{name: 1, value: 1}]}]}
  modified: {mergingList: [{name: 1, nonMergingList: [{name: 1, value: 1}]}, {name: 2}]}
  current: {mergingList: [{name: 1, other: a, nonMergingList: [{name: 2, value: 2}]}, {name: 2, other: b}]}
  threeWay: {$setElementOrder/mergingList: [{name: 1}, {name: 2}], mergingList: [{name: 1, nonMergingList: [{name: 1, value: 1}]}]}
  result: {mergingList: [{name: 1, other: a, nonMergingList: [{name: 1, value: 1}]}, {name: 2, other: b}]}
- description: add field to map in merging list nested in merging list with deletion conflict, reordered
  original: {mergingList: [{name: 1, mergingList: [{name: 1}, {name: 2, value: 2}]}, {name: 2}]}
  twoWay:
    $setElementOrder/mergingList: [{name: 1}, {name: 2}]
    mergingList: [{$setElementOrder/mergingList: [{name: 2}, {name: 1}], name: 1, mergingList: [{name: 1, value: 1}]}]
  modified: {mergingList: [{name: 1, mergingList: [{name: 2, value: 2}, {name: 1, value: 1}]}, {name: 2}]}
  current: {mergingList: [{name: 1, other: a, mergingList: [{name: 2, value: 2, other: d}]}, {name: 2, other: b}]}
  threeWay:
    $setElementOrder/mergingList: [{name: 1}, {name: 2}]
    mergingList: [{$setElementOrder/mergingList: [{name: 2}, {name: 1}], name: 1, mergingList: [{name: 1, value: 1}]}]
  result: {mergingList: [{name: 1, other: a, mergingList: [{name: 2, value: 2, other: d}, {name: 1, value: 1}]}, {name: 2, other: b}]}
- description: add map to merging list by pointer with conflict
  original: {mergeItemPtr: [{name: 1}]}
  twoWay: {$setElementOrder/mergeItemPtr: [{name: 1}, {name: 2}], mergeItemPtr: [{name: 2}]}
  modified: {mergeItemPtr: [{name: 1}, {name: 2}]}
  current: {mergeItemPtr: [{name: 3}]}
  threeWay: {$setElementOrder/mergeItemPtr: [{name: 1}, {name: 2}], mergeItemPtr: [{name: 1}, {name: 2}]}
  result: {mergeItemPtr: [{name: 1}, {name: 2}, {name: 3}]}
- description: merge lists of scalars
  original: {mergingIntList: [1, 2]}
  twoWay: {$setElementOrder/mergingIntList: [1, 2, 3], mergingIntList: [3]}
  modified: {mergingIntList: [1, 2, 3]}
  current: {mergingIntList: [1, 2, 4]}
  threeWay: {$setElementOrder/mergingIntList: [1, 2, 3], mergingIntList: [3]}
  result: {mergingIntList: [1, 2, 3, 4]}
- description: add an item in a list of primitives and preserve order
  original: {mergingIntList: [1, 2]}
  twoWay: {$setElementOrder/mergingIntList: [3, 1, 2], mergingIntList: [3]}
  modified: {mergingIntList: [3, 1, 2]}
  current: {mergingIntList: [1, 4, 2]}
  threeWay: {$setElementOrder/mergingIntList: [3, 1, 2], mergingIntList: [3]}
  result: {mergingIntList: [3, 1, 4, 2]}
- description: delete an item in a list of primitives and preserve order
  original: {mergingIntList: [1, 2, 3]}
  twoWay: {$setElementOrder/mergingIntList: [2, 1], $deleteFromPrimitiveList/mergingIntList: [3]}
  modified: {mergingIntList: [2, 1]}
  current: {mergingIntList: [1, 2, 3]}
  threeWay: {$setElementOrder/mergingIntList: [2, 1], $deleteFromPrimitiveList/mergingIntList: [3]}
  result: {mergingIntList: [2, 1]}
- description: add and delete an item in a list and preserve order
  original: {mergingList: [{name: 1}, {name: 3, value: 3}, {name: 2, value: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 4}, {name: 2}, {name: 1}], mergingList: [{name: 4, value: 4}, {name: 3, $patch: delete}]}
  modified: {mergingList: [{name: 4, value: 4}, {name: 2, value: 2}, {name: 1}]}
  current: {mergingList: [{name: 1, other: a}, {name: 2, value: 2, other: b}, {name: 3, value: 3}]}
  threeWay: {$setElementOrder/mergingList: [{name: 4}, {name: 2}, {name: 1}], mergingList: [{name: 4, value: 4}, {name: 3, $patch: delete}]}
  result: {mergingList: [{name: 4, value: 4}, {name: 2, value: 2, other: b}, {name: 1, other: a}]}
- description: set elements order in a list
  original: {mergingList: [{name: 1}, {name: 3, value: 3}, {name: 4, value: 4}, {name: 2, value: 2}]}
  twoWay: {$setElementOrder/mergingList: [{name: 4}, {name: 2}, {name: 3}, {name: 1}]}
  modified: {mergingList: [{name: 4, value: 4}, {name: 2, value: 2}, {name: 3, value: 3}, {name: 1}]}
  current: {mergingList: [{name: 1, other: a}, {name: 3, value: 3}, {name: 4, value: 4}, {name: 2, value: 2}]}
  threeWay: {$setElementOrder/mergingList: [{name: 4}, {name: 2}, {name: 3}, {name: 1}]}
  result: {mergingList: [{name: 4, value: 4}, {name: 2, value: 2}, {name: 3, value: 3}, {name: 1, other: a}]}
- description: retainKeys list of maps deletes a field and clears another
  original: {retainKeysMergingList: [{name: bar}, {name: foo, value: a}]}
  current: {retainKeysMergingList: [{name: bar}, {name: foo, value: a, other: x}]}
  modified: {retainKeysMergingList: [{name: bar}, {name: foo}]}
  twoWay:
    $setElementOrder/retainKeysMergingList: [{name: bar}, {name: foo}]
    retainKeysMergingList: [{$retainKeys: [name], name: foo, value: null}]
  threeWay:
    $setElementOrder/retainKeysMergingList: [{name: bar}, {name: foo}]
    retainKeysMergingList: [{$retainKeys: [name], name: foo, value: null}]
  result: {retainKeysMergingList: [{name: bar}, {name: foo}]}
- description: delete and reorder in one list, reorder in another
  original: {mergingList: [{name: a, value: a}, {name: b, value: b}], mergeItemPtr: [{name: c, value: c}, {name: d, value: d}]}
  current: {mergingList: [{name: a, value: a}, {name: b, value: b}], mergeItemPtr: [{name: c, value: c}, {name: d, value: d}]}
  modified: {mergingList: [{name: b, value: b}], mergeItemPtr: [{name: d, value: d}, {name: c, value: c}]}
  twoWay:
    $setElementOrder/mergingList: [{name: b}]
    $setElementOrder/mergeItemPtr: [{name: d}, {name: c}]
    mergingList: [{$patch: delete, name: a}]
  threeWay:
    $setElementOrder/mergingList: [{name: b}]
    $setElementOrder/mergeItemPtr: [{name: d}, {name: c}]
    mergingList: [{$patch: delete, name: a}]
  result: {mergingList: [{name: b, value: b}], mergeItemPtr: [{name: d, value: d}, {name: c, value: c}]}
- description: replace a field with a replace strategy, rest unchanged
  original: {name: my-object, replacingItem: {Some: Generic, Field: Period}}
  current: {name: my-object, other: current-other, mergingList: [{name: 1}, {name: 2}], replacingItem: {Some: Generic, Field: Period}}
  modified: {name: my-object, mergingList: [{name: 1}, {name: 2}], replacingItem: {Newly: Modified}}
  twoWay: {mergingList: [{name: 1}, {name: 2}], replacingItem: {Newly: Modified}}
  threeWay: {replacingItem: {Newly: Modified}}
  result: {name: my-object, other: current-other, mergingList: [{name: 1}, {name: 2}], replacingItem: {Newly: Modified}}
`) as Case[];

describe('createTwoWayMergePatch / createThreeWayMergePatch / applyStrategicMergePatch', () => {
  for (const c of [...createCases, ...rawCases]) it(c.description, () => runCase(c));
});

// Patches no diff produces: directives written by hand, and old-client formats.
const customCases = parse(`
- description: unique scalars when merging lists
  original: {mergingIntList: [1, 2]}
  patch: {mergingIntList: [2, 3]}
  result: {mergingIntList: [1, 2, 3]}
- description: delete map from nested map
  original: {simpleMap: {key1: 1, key2: 1}}
  patch: {simpleMap: {$patch: delete}}
  result: {simpleMap: {}}
- description: delete all items from merging list
  original: {mergingList: [{name: 1}, {name: 2}]}
  patch: {mergingList: [{$patch: replace}]}
  result: {mergingList: []}
- description: delete all keys from map
  original: {name: 1, value: 1}
  patch: {$patch: replace}
  result: {}
- description: add key and delete all keys from map
  original: {name: 1, value: 1}
  patch: {other: a, $patch: replace}
  result: {other: a}
- description: delete all duplicate entries in a merging list
  original: {mergingList: [{name: 1}, {name: 1}, {name: 2, value: a}, {name: 3}, {name: 3}]}
  patch: {mergingList: [{name: 1, $patch: delete}, {name: 3, $patch: delete}]}
  result: {mergingList: [{name: 2, value: a}]}
- description: retainKeys map can change a field when no retainKeys directive present
  original: {retainKeysMap: {name: foo, value: a}}
  patch: {retainKeysMap: {value: b}}
  result: {retainKeysMap: {name: foo, value: b}}
- description: retainKeys map clears fields missing from the directive
  original: {retainKeysMap: {name: foo, value: a, other: x}}
  patch: {retainKeysMap: {$retainKeys: [name, value], value: b}}
  result: {retainKeysMap: {name: foo, value: b}}
- description: retainKeys list can delete a field when no retainKeys directive present
  original: {retainKeysMergingList: [{name: bar}, {name: foo, value: a}]}
  patch: {retainKeysMergingList: [{name: foo, value: null}]}
  result: {retainKeysMergingList: [{name: bar}, {name: foo}]}
- description: preserve the order from the patch in a merging list
  original: {mergingList: [{name: 1}, {name: 2, value: b}, {name: 3}]}
  patch: {mergingList: [{name: 3, value: c}, {name: 1, value: a}, {name: 2, other: x}]}
  result: {mergingList: [{name: 3, value: c}, {name: 1, value: a}, {name: 2, value: b, other: x}]}
- description: preserve the order from the patch in a merging list 2
  original: {mergingList: [{name: 1}, {name: 2, value: b}, {name: 3}]}
  patch: {mergingList: [{name: 3, value: c}, {name: 1, value: a}]}
  result: {mergingList: [{name: 2, value: b}, {name: 3, value: c}, {name: 1, value: a}]}
- description: preserve the order from the patch in a merging int list
  original: {mergingIntList: [1, 2, 3]}
  patch: {mergingIntList: [3, 1]}
  result: {mergingIntList: [2, 3, 1]}
- description: $setElementOrder naming an item absent from the list
  original: {mergingList: [{name: 1}, {name: 3}]}
  patch: {$setElementOrder/mergingList: [{name: 3}, {name: 2}, {name: 1}], mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]}
  result: {mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]}
- description: $setElementOrder alone reorders an int list
  original: {mergingIntList: [1, 3]}
  patch: {$setElementOrder/mergingIntList: [3, 2, 1]}
  result: {mergingIntList: [3, 1]}
- description: a $patch directive under a field the original lacks is dropped with it
  original: {name: a}
  patch: {simpleMap: {$patch: replace, a: b}, mergingList: [{name: 1, $patch: delete}, {name: 2}]}
  result: {name: a, mergingList: [{name: 2}]}
- description: nulls inside a value the original lacks are discarded
  original: {name: a}
  patch: {retainKeysMap: {name: x, value: null}}
  result: {name: a, retainKeysMap: {name: x}}
- description: $deleteFromPrimitiveList deletes whatever the field's strategy
  original: {nonMergingIntList: [1, 2, 3]}
  patch: {$deleteFromPrimitiveList/nonMergingIntList: [2]}
  result: {nonMergingIntList: [1, 3]}
`) as { description: string; original: JsonObject; patch: JsonObject; result: JsonObject }[];

describe('applyStrategicMergePatch with hand-written patches', () => {
  for (const c of customCases) it(c.description, () => expect(apply(c.original, c.patch)).toEqual(c.result));

  it('does not modify its inputs', () => {
    const original = parse('{mergingList: [{name: 1}, {name: 2}]}') as JsonObject;
    const patch = parse('{mergingList: [{name: 1, $patch: delete}], $setElementOrder/mergingList: [{name: 2}]}') as JsonObject;
    const o = JSON.stringify(original);
    const p = JSON.stringify(patch);
    apply(original, patch);
    expect([JSON.stringify(original), JSON.stringify(patch)]).toEqual([o, p]);
  });
});

describe('errors, with upstream texts', () => {
  const err = (original: string, patch: string) => applyStrategicMergePatch(parse(original) as JsonObject, parse(patch) as JsonObject, MergeItem);

  it('patch list out of $setElementOrder order', () => {
    const r = err('{mergingList: [{name: 1}, {name: 3}, {name: 2}]}', '{$setElementOrder/mergingList: [{name: 1}, {name: 2}, {name: 3}], mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]}');
    expect(r).toEqual({
      ok: false,
      kind: 'Other',
      error: "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
    });
  });

  it('int list out of $setElementOrder order', () => {
    const r = err('{mergingIntList: [1, 3, 2]}', '{$setElementOrder/mergingIntList: [1, 2, 3], mergingIntList: [3, 1]}');
    expect(r.ok ? '' : r.error).toContain("doesn't match");
  });

  it('missing merge key', () => {
    expect(err('{mergingList: [{name: 1, value: a}]}', '{mergingList: [{value: b}]}')).toEqual({
      ok: false,
      kind: 'Other',
      error: 'map: map[value:b] does not contain declared merge key: name',
    });
  });

  it('unknown directive', () => {
    expect(err('{simpleMap: {a: b}}', '{simpleMap: {$patch: merge}}')).toEqual({ ok: false, kind: 'Other', error: 'unknown patch type: merge in map: map[$patch:merge]' });
    expect(err('{mergingList: [{name: 1}]}', '{mergingList: [{name: 1, $patch: merge}]}')).toEqual({
      ok: false,
      kind: 'Other',
      error: 'merging lists cannot yet be specified in the patch',
    });
    expect(err('{mergingList: [{name: 1}]}', '{mergingList: [{name: 1, $patch: 5}]}')).toEqual({
      ok: false,
      kind: 'Other',
      error: 'unknown patch type: %!s(int64=5) in map: map[$patch:5 name:1]',
    });
  });

  it('malformed parallel lists are sentinel errors', () => {
    expect(err('{mergingIntList: [1]}', '{$deleteFromPrimitiveListmergingIntList: [1]}')).toEqual({
      ok: false,
      kind: 'ErrBadPatchFormatForPrimitiveList',
      error: 'invalid patch format of primitive list',
    });
    expect(err('{retainKeysMap: {name: a}}', '{retainKeysMap: {$retainKeys: [name], value: b}}')).toEqual({
      ok: false,
      kind: 'ErrBadPatchFormatForRetainKeys',
      error: 'invalid patch format of retainKeys',
    });
    expect(err('{retainKeysMap: {name: a}}', '{retainKeysMap: {$retainKeys: name}}')).toMatchObject({ ok: false, kind: 'ErrBadPatchFormatForRetainKeys' });
    expect(err('{mergingList: [{name: 1}]}', '{$setElementOrder/mergingList: {name: 1}}')).toEqual({
      ok: false,
      kind: 'Other',
      error: 'expected a []interface {}, but received a map[string]interface {}',
    });
  });

  it('lists of lists and mixed element types', () => {
    expect(err('{mergingIntList: [[1]]}', '{mergingIntList: [[2]]}')).toEqual({ ok: false, kind: 'ErrNoListOfLists', error: 'lists of lists are not supported' });
    expect(err('{mergingIntList: [1]}', '{mergingIntList: [a]}')).toEqual({
      ok: false,
      kind: 'Other',
      error: 'list element types are not identical: [[1] [a]]',
    });
  });

  it('a merge strategy without merge key on a list of maps', () => {
    expect(err('{mergingIntList: [{a: 1}]}', '{mergingIntList: [{a: 2}]}')).toEqual({ ok: false, kind: 'Other', error: 'cannot merge lists without merge key for int' });
  });

  it('a patch body that is not an object', () => {
    expect(applyStrategicMergePatch({ a: 1 }, [1], MergeItem)).toEqual({
      ok: false,
      kind: 'DecodeError',
      error: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
    });
    expect(applyStrategicMergePatch({ name: 'a' }, null, MergeItem)).toEqual({ ok: true, value: { name: 'a' } });
  });

  it('unknown fields of a complete struct (TestUnknownField)', () => {
    const o = { array: [1, 2, 3], complex: { nested: true }, name: 'foo', scalar: true };
    expect(createTwoWayMergePatch(o, o, MergeItem)).toEqual({ ok: true, value: {} });
    expect(createTwoWayMergePatch({ name: 'foo' }, { name: 'foo', scalar: true, complex: { nested: true }, array: [1, 2, 3] }, MergeItem)).toEqual({
      ok: true,
      value: { array: [1, 2, 3], complex: { nested: true }, scalar: true },
    });
    expect(createTwoWayMergePatch({ name: 'foo', scalar: true, complex: { nested: true } }, { name: 'foo' }, MergeItem)).toEqual({
      ok: true,
      value: { complex: null, scalar: null },
    });
    const diff = createTwoWayMergePatch(o, { ...o, complex: { nested: false } }, MergeItem);
    expect(diff).toEqual({ ok: false, kind: 'Other', error: 'unable to find api field in struct MergeItem for the json field "complex"' });
  });
});

describe('three-way conflicts (overwrite=false)', () => {
  it('reports a field changed both in current and in the new configuration', () => {
    const r = createThreeWayMergePatch({ name: 1 }, { name: 1, value: 1 }, { name: 'a', other: 'a' }, MergeItem, false);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.kind).toBe('ErrConflict');
      expect(r.error).toBe('patch:\nname: 1\nvalue: 1\n\nconflicts with changes made from original to current:\nname: a\nother: a\n\n');
    }
  });

  it('passes when current changed other fields only', () => {
    expect(createThreeWayMergePatch({ name: 1 }, { name: 1, value: 1 }, { name: 1, other: 'a' }, MergeItem, false)).toEqual({ ok: true, value: { value: 1 } });
  });

  it('mergingMapsHaveConflicts compares merging lists by key', () => {
    const left = parse('{mergingList: [{name: 1, value: a}, {name: 2}]}') as JsonObject;
    expect(mergingMapsHaveConflicts(left, parse('{mergingList: [{name: 1, value: a}, {name: 3}]}') as JsonObject, MergeItem)).toEqual({ ok: true, value: false });
    expect(mergingMapsHaveConflicts(left, parse('{mergingList: [{name: 1, value: b}]}') as JsonObject, MergeItem)).toEqual({ ok: true, value: true });
    expect(mergingMapsHaveConflicts({ nonMergingIntList: [1, 2] }, { nonMergingIntList: [2, 1] }, MergeItem)).toEqual({ ok: true, value: false });
  });
});

describe('upstream quirks kept on purpose', () => {
  it('an unchanged but unsorted merge list of scalars still gets a $setElementOrder list', () => {
    expect(createTwoWayMergePatch({ mergingIntList: [2, 1] }, { mergingIntList: [2, 1] }, MergeItem)).toEqual({
      ok: true,
      value: { '$setElementOrder/mergingIntList': [2, 1] },
    });
    expect(createTwoWayMergePatch({ mergingIntList: [1, 2] }, { mergingIntList: [1, 2] }, MergeItem)).toEqual({ ok: true, value: {} });
  });

  it('reordering a merge list of scalars into sorted order yields no patch (the in-place sort hides it)', () => {
    expect(createTwoWayMergePatch({ mergingIntList: [2, 1] }, { mergingIntList: [1, 2] }, MergeItem)).toEqual({ ok: true, value: {} });
  });

  it('numbers order by their text in scalar diffs (10 sorts before 9)', () => {
    expect(createTwoWayMergePatch({ mergingIntList: [9] }, { mergingIntList: [9, 10] }, MergeItem)).toEqual({
      ok: true,
      value: { '$setElementOrder/mergingIntList': [9, 10], mergingIntList: [10] },
    });
  });
});
