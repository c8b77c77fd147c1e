// Strategic merge patch, after k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
// (v1.32): applying a patch as the API server does (StrategicMergeMapPatch),
// and computing two-way and three-way patches as kubectl does
// (CreateTwoWayMergeMapPatch, CreateThreeWayMergePatch).
//
// Upstream works in place on Go maps and slices, and some results depend on
// that: the diff sorts lists of scalars of its inputs in place, and deleting
// entries from a merging list shifts the shared backing array that the
// $setElementOrder step later reads as "server order". We copy the inputs at
// the boundary and then mutate exactly where Go does, treating decoded lists
// as having capacity equal to their length.
import type { JsonObject, JsonValue } from '../types';
import { catchAbort, fail, isPatchAbort, mergepatchErr, other, sentinel, type PatchResult } from './errors';
import { cloneJson, deepEqual, goEq, goFmtS, goFmtV, goStableSort, goStrCompare, goType, isObject, sortKeysDeep, type GoType } from './goValues';
import { toYAML } from './goYaml';
import { lookupPatchMetadataForSlice, lookupPatchMetadataForStruct, type LookupResult, type StructPatchMeta } from './patchMeta';

const directiveMarker = '$patch';
const deleteDirective = 'delete';
const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysStrategy = 'retainKeys';
const deleteFromPrimitiveListDirectivePrefix = '$deleteFromPrimitiveList';
const retainKeysDirective = '$retainKeys';
const setElementOrderDirectivePrefix = '$setElementOrder';

type Schema = StructPatchMeta | undefined;

interface DiffOptions {
  /** Emit $setElementOrder parallel lists. */
  setElementOrder: boolean;
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  /** The struct being diffed has patchStrategy retainKeys: emit $retainKeys. */
  buildRetainKeysDirective: boolean;
}

interface MergeOptions {
  /** Apply $deleteFromPrimitiveList and $setElementOrder (server side); off when merging two patches (kubectl). */
  mergeParallelList: boolean;
  /** Drop nulls that match nothing (server side); kept when merging two patches so deletions propagate. */
  ignoreUnmatchedNulls: boolean;
}

/** A function that checks a computed patch (mergepatch.PreconditionFunc). */
export type PreconditionFunc = (patch: JsonObject) => boolean;

// ---- public API -------------------------------------------------------------

/**
 * StrategicMergeMapPatch: apply `patch` to `original`. Inputs are not
 * modified. A null patch changes nothing; a patch that is not an object fails
 * as the API server's decoding of the body does.
 */
export function applyStrategicMergePatch(original: JsonValue, patch: JsonValue, meta: StructPatchMeta | undefined): PatchResult<JsonObject> {
  for (const v of [original, patch]) {
    if (v !== null && !isObject(v)) return { ok: false, kind: 'DecodeError', error: `json: cannot unmarshal ${jsonTypeName(v)} into Go value of type map[string]interface {}` };
  }
  return catchAbort(() =>
    mergeMap(cloneJson(isObject(original) ? original : {}), cloneJson(isObject(patch) ? patch : {}), meta, { mergeParallelList: true, ignoreUnmatchedNulls: true }),
  );
}

/** encoding/json's name for a JSON value's type in UnmarshalTypeError texts. */
export function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** CreateTwoWayMergeMapPatch: a patch that turns `original` into `modified`, with $setElementOrder lists. Keys come out sorted. */
export function createTwoWayMergePatch(
  original: JsonObject,
  modified: JsonObject,
  meta: StructPatchMeta | undefined,
  preconditions: readonly PreconditionFunc[] = [],
): PatchResult<JsonObject> {
  return catchAbort(() => {
    const patch = diffMaps(cloneJson(original), cloneJson(modified), meta, {
      setElementOrder: true,
      ignoreChangesAndAdditions: false,
      ignoreDeletions: false,
      buildRetainKeysDirective: false,
    });
    for (const fn of preconditions) if (!fn(patch)) fail(mergepatchErr.preconditionFailed(patch));
    return sortKeysDeep(cloneJson(patch)) as JsonObject;
  });
}

/**
 * CreateThreeWayMergePatch, as `kubectl apply` uses it: `original` is the
 * last-applied configuration, `modified` the new configuration, `current` the
 * live object. The patch carries the changes from current to modified (no
 * deletions) plus the deletions from original to modified. With overwrite
 * false, changes that conflict with edits made since original are an ErrConflict.
 */
export function createThreeWayMergePatch(
  original: JsonObject | null,
  modified: JsonObject | null,
  current: JsonObject | null,
  meta: StructPatchMeta | undefined,
  overwrite = true,
  preconditions: readonly PreconditionFunc[] = [],
): PatchResult<JsonObject> {
  return catchAbort(() => {
    const originalMap = cloneJson(original ?? {});
    const modifiedMap = cloneJson(modified ?? {});
    const currentMap = cloneJson(current ?? {});
    const deltaMap = diffMaps(currentMap, modifiedMap, meta, {
      setElementOrder: true,
      ignoreChangesAndAdditions: false,
      ignoreDeletions: true,
      buildRetainKeysDirective: false,
    });
    const deletionsMap = diffMaps(originalMap, modifiedMap, meta, {
      setElementOrder: true,
      ignoreChangesAndAdditions: true,
      ignoreDeletions: false,
      buildRetainKeysDirective: false,
    });
    const patchMap = mergeMap(deletionsMap, deltaMap, meta, { mergeParallelList: false, ignoreUnmatchedNulls: false });
    for (const fn of preconditions) if (!fn(patchMap)) fail(mergepatchErr.preconditionFailed(patchMap));
    if (!overwrite) {
      const changedMap = diffMaps(originalMap, currentMap, meta, {
        setElementOrder: false,
        ignoreChangesAndAdditions: false,
        ignoreDeletions: false,
        buildRetainKeysDirective: false,
      });
      if (mergingMapFieldsHaveConflicts(patchMap, changedMap, meta, '', '')) fail(mergepatchErr.conflict(toYAML(patchMap), toYAML(changedMap)));
    }
    return sortKeysDeep(cloneJson(patchMap)) as JsonObject;
  });
}

/** MergingMapsHaveConflicts: do two patches set some key differently? */
export function mergingMapsHaveConflicts(left: JsonObject, right: JsonObject, meta: StructPatchMeta | undefined): PatchResult<boolean> {
  return catchAbort(() => mergingMapFieldsHaveConflicts(cloneJson(left), cloneJson(right), meta, '', ''));
}

// ---- shared helpers ---------------------------------------------------------

function extractRetainKeysPatchStrategy(strategies: readonly string[]): { retainKeys: boolean; strategy: string } {
  switch (strategies.length) {
    case 0:
      return { retainKeys: false, strategy: '' };
    case 1: {
      const s = strategies[0] ?? '';
      return s === retainKeysStrategy ? { retainKeys: true, strategy: '' } : { retainKeys: false, strategy: s };
    }
    case 2:
      if (strategies[0] === retainKeysStrategy) return { retainKeys: true, strategy: strategies[1] ?? '' };
      if (strategies[1] === retainKeysStrategy) return { retainKeys: true, strategy: strategies[0] ?? '' };
      return fail(other(`unexpected patch strategy: [${strategies.join(' ')}]`));
    default:
      return fail(other(`unexpected patch strategy: [${strategies.join(' ')}]`));
  }
}

/** sliceElementType: all elements of the slices must share one Go type, and not be slices. */
function sliceElementType(slices: readonly JsonValue[][]): GoType {
  let prev: GoType | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === 'slice') fail(sentinel('ErrNoListOfLists'));
      } else if (prev !== t) {
        fail(other(`list element types are not identical: ${goFmtV(slices as JsonValue[][])}`));
      }
    }
  }
  if (prev === undefined) fail(other('no elements in any of the given slices'));
  return prev;
}

/** sort.Sort of scalars by their %v text, in place. */
function sortScalars(s: JsonValue[]): JsonValue[] {
  return s.sort((a, b) => goStrCompare(goFmtV(a), goFmtV(b)));
}

/** deduplicateScalars on s[0:n], in place (it moves the last element into each duplicate's slot); returns the new length. */
function deduplicateScalarsInPlace(s: JsonValue[], n: number): number {
  let length = n - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEq(s[i], s[j])) {
        s[j] = s[length] as JsonValue;
        length--;
        j--;
      }
    }
  }
  return length + 1;
}

function deduplicateScalars(s: JsonValue[]): JsonValue[] {
  return s.slice(0, deduplicateScalarsInPlace(s, s.length));
}

function deduplicateAndSortScalars(s: JsonValue[]): JsonValue[] {
  return sortScalars(deduplicateScalars(s));
}

/** index: where val sits in l, comparing merge key values for maps and the items themselves otherwise. */
function index(l: readonly JsonValue[], val: JsonValue, mergeKey: string, kind: GoType): number {
  const get = (item: JsonValue | undefined): JsonValue | undefined => (kind === 'map' ? (isObject(item) ? item[mergeKey] : null) : item);
  const want = get(val);
  for (let i = 0; i < l.length; i++) if (goEq(want, get(l[i]))) return i;
  return -1;
}

function validateMergeKeyInLists(mergeKey: string, lists: readonly JsonValue[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isObject(item)) fail(mergepatchErr.badArgType('map', item));
      if (!Object.hasOwn(item, mergeKey)) fail(mergepatchErr.noMergeKey(item, mergeKey));
    }
  }
}

function extractToDeleteItems(l: readonly JsonValue[]): [JsonValue[], JsonValue[]] {
  const nonDelete: JsonValue[] = [];
  const toDelete: JsonValue[] = [];
  for (const v of l) {
    if (!isObject(v)) fail(mergepatchErr.badArgType('map', v));
    if (Object.hasOwn(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v);
    else nonDelete.push(v);
  }
  return [nonDelete, toDelete];
}

/** normalizeSliceOrder: sort toSort by its order in `order` (sort.SliceStable, with upstream's comparator); deletions last. */
function normalizeSliceOrder(toSort: JsonValue[], order: readonly JsonValue[], mergeKey: string, kind: GoType): JsonValue[] {
  let toDelete: JsonValue[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, [toSort, order as JsonValue[]]);
    [toSort, toDelete] = extractToDeleteItems(toSort);
  }
  goStableSort(toSort, (a, b) => {
    const ii = index(order, a, mergeKey, kind);
    if (ii >= 0) {
      const ij = index(order, b, mergeKey, kind);
      if (ij >= 0) return ii < ij;
    }
    return true;
  });
  return toSort.concat(toDelete);
}

/** mergeSortedSlice: interleave server-only items (left) with patch items (right), keeping each side's order. */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: readonly JsonValue[], mergeKey: string, kind: GoType): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  const size = left.length + right.length;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) out.push(right[j++] as JsonValue);
    else if (j >= right.length && i < left.length) out.push(left[i++] as JsonValue);
    else {
      const li = index(serverOrder, left[i] as JsonValue, mergeKey, kind);
      const ri = index(serverOrder, right[j] as JsonValue, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++] as JsonValue);
      else out.push(right[j++] as JsonValue);
    }
  }
  return out;
}

function normalizeElementOrder(
  patch: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: GoType,
): JsonValue[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

function mergeKeyValueEqual(left: JsonValue | undefined, right: JsonValue | undefined, mergeKey: string): boolean {
  if (mergeKey === '') return goEq(left, right);
  if (!isObject(left)) fail(mergepatchErr.badArgType('map', left));
  if (!isObject(right)) fail(mergepatchErr.badArgType('map', right));
  if (!Object.hasOwn(left, mergeKey)) fail(mergepatchErr.noMergeKey(left, mergeKey));
  if (!Object.hasOwn(right, mergeKey)) fail(mergepatchErr.noMergeKey(right, mergeKey));
  return goEq(left[mergeKey], right[mergeKey]);
}

/** The lookup, except that an unknown field is no error when both sides are equal anyway (handleMapDiff/handleSliceDiff). */
function lookupOrSkip(lookup: () => LookupResult, originalValue: JsonValue, modifiedValue: JsonValue): LookupResult | undefined {
  try {
    return lookup();
  } catch (e) {
    if (isPatchAbort(e) && deepEqual(originalValue, modifiedValue)) return undefined;
    throw e;
  }
}

// ---- diff (CreateTwoWayMergePatch / CreateThreeWayMergePatch) ---------------

function diffMaps(original: JsonObject, modified: JsonObject, schema: Schema, opts: DiffOptions): JsonObject {
  const patch: JsonObject = {};
  const retainKeysList: JsonValue[] = [];
  for (const key of Object.keys(modified)) {
    const modifiedValue = modified[key] as JsonValue;
    if (opts.buildRetainKeysDirective && modifiedValue !== null) retainKeysList.push(key);
    if (!Object.hasOwn(original, key)) {
      if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    const originalValue = original[key] as JsonValue;
    if (key === directiveMarker) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') fail(other(`invalid value for special key: ${directiveMarker}`));
      if (modifiedValue !== originalValue) patch[directiveMarker] = modifiedValue;
      continue;
    }
    const t = goType(originalValue);
    if (t !== goType(modifiedValue)) {
      if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    if (t === 'map') handleMapDiff(key, originalValue as JsonObject, modifiedValue as JsonObject, patch, schema, opts);
    else if (t === 'slice') handleSliceDiff(key, originalValue as JsonValue[], modifiedValue as JsonValue[], patch, schema, opts);
    else replacePatchFieldIfNotEqual(key, originalValue, modifiedValue, patch, opts);
  }
  // updatePatchIfMissing: fields gone from modified are set to null.
  if (!opts.ignoreDeletions) for (const key of Object.keys(original)) if (!Object.hasOwn(modified, key)) patch[key] = null;
  if (retainKeysList.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified))) {
    patch[retainKeysDirective] = sortScalars(retainKeysList);
  }
  return patch;
}

function hasAdditionalNewField(original: JsonObject, modified: JsonObject): boolean {
  return Object.keys(original).some((k) => original[k] !== null && !Object.hasOwn(modified, k));
}

function replacePatchFieldIfNotEqual(key: string, original: JsonValue, modified: JsonValue, patch: JsonObject, opts: DiffOptions): void {
  if (opts.ignoreChangesAndAdditions) return;
  if (deepEqual(original, modified)) return;
  patch[key] = modified;
}

function handleMapDiff(key: string, originalValue: JsonObject, modifiedValue: JsonObject, patch: JsonObject, schema: Schema, opts: DiffOptions): void {
  const lr = lookupOrSkip(() => lookupPatchMetadataForStruct(schema, key), originalValue, modifiedValue);
  if (lr === undefined) return;
  const { retainKeys, strategy } = extractRetainKeysPatchStrategy(lr.strategies);
  const sub: DiffOptions = { ...opts, buildRetainKeysDirective: retainKeys };
  if (strategy === replaceDirective) {
    if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
    return;
  }
  const patchValue = diffMaps(originalValue, modifiedValue, lr.schema, sub);
  if (Object.keys(patchValue).length > 0) patch[key] = patchValue;
}

function handleSliceDiff(key: string, originalValue: JsonValue[], modifiedValue: JsonValue[], patch: JsonObject, schema: Schema, opts: DiffOptions): void {
  const lr = lookupOrSkip(() => lookupPatchMetadataForSlice(schema, key), originalValue, modifiedValue);
  if (lr === undefined) return;
  const { retainKeys, strategy } = extractRetainKeysPatchStrategy(lr.strategies);
  if (strategy !== mergeDirective) {
    replacePatchFieldIfNotEqual(key, originalValue, modifiedValue, patch, opts);
    return;
  }
  const [addList, deletionList, setOrderList] = diffLists(originalValue, modifiedValue, lr.schema, lr.mergeKey, { ...opts, buildRetainKeysDirective: retainKeys });
  if (addList.length > 0) patch[key] = addList;
  if (deletionList.length > 0) patch[`${deleteFromPrimitiveListDirectivePrefix}/${key}`] = deletionList;
  if (setOrderList.length > 0) patch[`${setElementOrderDirectivePrefix}/${key}`] = setOrderList;
}

/** diffLists: the patch list, the parallel deletion list (scalars only) and the $setElementOrder list. */
function diffLists(original: JsonValue[], modified: JsonValue[], schema: Schema, mergeKey: string, opts: DiffOptions): [JsonValue[], JsonValue[], JsonValue[]] {
  if (original.length === 0) {
    if (modified.length === 0 || opts.ignoreChangesAndAdditions) return [[], [], []];
    return [modified, [], []];
  }
  const kind = sliceElementType([original, modified]);
  if (kind === 'map') {
    const [patchList0, deleteList] = diffListsOfMaps(original, modified, schema, mergeKey, opts);
    let patchList = normalizeSliceOrder(patchList0, modified, mergeKey, kind);
    const orderSame = isOrderSame(original, modified, mergeKey);
    patchList = patchList.concat(deleteList);
    let setOrderList: JsonValue[] = [];
    if (
      opts.setElementOrder &&
      ((!opts.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) || (!opts.ignoreDeletions && patchList.length > 0))
    ) {
      setOrderList = modified.map((v) => ({ [mergeKey]: (v as JsonObject)[mergeKey] ?? null }));
    }
    return [patchList, [], setOrderList];
  }
  if (kind === 'slice') fail(sentinel('ErrNoListOfLists'));
  const [patchList0, deleteList] = diffListsOfScalars(original, modified, opts);
  const patchList = normalizeSliceOrder(patchList0, modified, mergeKey, kind);
  // diffListsOfScalars sorted `original` in place, so this compares the sorted
  // original with modified: an unchanged but unsorted list still gets an order list.
  let setOrderList: JsonValue[] = [];
  if (opts.setElementOrder && ((!opts.ignoreDeletions && deleteList.length > 0) || (!opts.ignoreChangesAndAdditions && !deepEqual(original, modified)))) {
    setOrderList = modified;
  }
  return [patchList, deleteList, setOrderList];
}

function isOrderSame(original: readonly JsonValue[], modified: readonly JsonValue[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  for (let i = 0; i < modified.length; i++) if (!mergeKeyValueEqual(original[i], modified[i], mergeKey)) return false;
  return true;
}

/** diffListsOfScalars: additions and deletions between two scalar lists, compared by %v text. Sorts `original` in place. */
function diffListsOfScalars(original: JsonValue[], modified: readonly JsonValue[], opts: DiffOptions): [JsonValue[], JsonValue[]] {
  const originalScalars = sortScalars(original);
  const modifiedScalars = sortScalars(modified.slice());
  let oi = 0;
  let mi = 0;
  const addList: JsonValue[] = [];
  const deletionList: JsonValue[] = [];
  for (;;) {
    const oIn = oi < originalScalars.length;
    const mIn = mi < modifiedScalars.length;
    if (!oIn && !mIn) break;
    const ov = originalScalars[oi] as JsonValue;
    const mv = modifiedScalars[mi] as JsonValue;
    const cmp = oIn && mIn ? goStrCompare(goFmtV(ov), goFmtV(mv)) : 0;
    if (oIn && mIn && cmp === 0) {
      oi++;
      mi++;
    } else if (!oIn || (mIn && cmp > 0)) {
      if (!opts.ignoreChangesAndAdditions) addList.push(mv);
      mi++;
    } else {
      if (!opts.ignoreDeletions) deletionList.push(ov);
      oi++;
    }
  }
  return [addList, deduplicateScalars(deletionList)];
}

/** sortMergeListsByNameArray without recursion: a copy sorted by merge key (scalars: deduplicated and sorted in place). */
function sortMergeListsByNameArray(s: JsonValue[], mergeKey: string): JsonValue[] {
  if (s.length === 0) return s;
  if (sliceElementType([s]) !== 'map') return deduplicateAndSortScalars(s);
  return s.slice().sort((a, b) => goStrCompare(goFmtV((a as JsonObject)[mergeKey]), goFmtV((b as JsonObject)[mergeKey])));
}

function mapAndMergeKeyValue(list: readonly JsonValue[], i: number, mergeKey: string): [JsonObject, JsonValue] {
  const m = list[i];
  if (!isObject(m)) return fail(mergepatchErr.badArgType('map', m));
  if (!Object.hasOwn(m, mergeKey)) return fail(mergepatchErr.noMergeKey(m, mergeKey));
  return [m, m[mergeKey] as JsonValue];
}

/** diffListsOfMaps: recursive patches for changed items, whole items for added ones, delete directives for removed ones. */
function diffListsOfMaps(original: JsonValue[], modified: JsonValue[], schema: Schema, mergeKey: string, opts: DiffOptions): [JsonValue[], JsonValue[]] {
  const patch: JsonValue[] = [];
  const deletionList: JsonValue[] = [];
  const originalSorted = sortMergeListsByNameArray(original, mergeKey);
  const modifiedSorted = sortMergeListsByNameArray(modified, mergeKey);
  let oi = 0;
  let mi = 0;
  for (;;) {
    const oIn = oi < originalSorted.length;
    const mIn = mi < modifiedSorted.length;
    if (!oIn && !mIn) break;
    let oe: JsonObject | undefined;
    let ov: JsonValue | undefined;
    let me: JsonObject | undefined;
    let mv: JsonValue | undefined;
    if (oIn) [oe, ov] = mapAndMergeKeyValue(originalSorted, oi, mergeKey);
    if (mIn) [me, mv] = mapAndMergeKeyValue(modifiedSorted, mi, mergeKey);
    const cmp = oIn && mIn ? goStrCompare(goFmtV(ov), goFmtV(mv)) : 0;
    if (oIn && mIn && cmp === 0) {
      const patchValue = diffMaps(oe as JsonObject, me as JsonObject, schema, opts);
      if (Object.keys(patchValue).length > 0) {
        patchValue[mergeKey] = mv as JsonValue;
        patch.push(patchValue);
      }
      oi++;
      mi++;
    } else if (!oIn || (mIn && cmp > 0)) {
      if (!opts.ignoreChangesAndAdditions) patch.push(me as JsonObject);
      mi++;
    } else {
      if (!opts.ignoreDeletions) deletionList.push({ [mergeKey]: ov as JsonValue, [directiveMarker]: deleteDirective });
      oi++;
    }
  }
  return [patch, deletionList];
}

// ---- merge (StrategicMergeMapPatch, and merging two patches) -------------

function handleDirectiveInMergeMap(directive: JsonValue | undefined, patch: JsonObject): JsonObject {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  return fail(mergepatchErr.badPatchType(directive, patch));
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListDirectivePrefix) fail(sentinel('ErrBadPatchFormatForPrimitiveList'));
    if (prefix === setElementOrderDirectivePrefix) fail(sentinel('ErrBadPatchFormatForSetElementOrderList'));
    fail(other(`fail to find unknown prefix ${JSON.stringify(prefix)} in ${s}\n`));
  }
  return s.slice(slash + 1);
}

/** A Go map key for a hashable value (Go map[interface{}] keys compare by dynamic type and value). */
function hashKey(v: JsonValue | undefined): string {
  return `${goType(v)}:${typeof v === 'string' ? v : JSON.stringify(v ?? null)}`;
}

function applyRetainKeysDirective(original: JsonObject, patch: JsonObject, opts: MergeOptions): void {
  if (!Object.hasOwn(patch, retainKeysDirective)) return;
  const retainKeysInPatch = patch[retainKeysDirective] as JsonValue;
  delete patch[retainKeysDirective];
  if (!opts.mergeParallelList) {
    // Merging two patches: both must carry the same list, or only one.
    if (Object.hasOwn(original, retainKeysDirective)) {
      const inOriginal = original[retainKeysDirective] as JsonValue;
      if (!deepEqual(inOriginal, retainKeysInPatch)) {
        fail(other(`${goFmtV(inOriginal)} and ${goFmtV(retainKeysInPatch)} are not deep equal: this may happen when calculating the 3-way diff patch`));
      }
    } else {
      original[retainKeysDirective] = retainKeysInPatch;
    }
    return;
  }
  if (!Array.isArray(retainKeysInPatch)) fail(sentinel('ErrBadPatchFormatForRetainKeys'));
  const keep = new Set(retainKeysInPatch.map(hashKey));
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(deleteFromPrimitiveListDirectivePrefix) || k.startsWith(setElementOrderDirectivePrefix)) continue;
    if (!keep.has(hashKey(k))) fail(sentinel('ErrBadPatchFormatForRetainKeys'));
  }
  for (const k of Object.keys(original)) if (!keep.has(hashKey(k))) delete original[k];
}

function containsDirectiveMarker(item: JsonValue | undefined): boolean {
  return isObject(item) && Object.hasOwn(item, directiveMarker);
}

/** validatePatchWithSetOrderList: the patch list (deletions aside) must follow the $setElementOrder list. */
function validatePatchWithSetOrderList(patchList: JsonValue[], setOrderList: JsonValue[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDeleteList = mergeKey !== '' ? extractToDeleteItems(patchList)[0] : patchList;
  let p = 0;
  let s = 0;
  while (p < nonDeleteList.length && s < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[p])) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(nonDeleteList[p], setOrderList[s], mergeKey)) p++;
    s++;
  }
  if (p < nonDeleteList.length && s >= setOrderList.length) {
    fail(other(`The order in patch list:\n${goFmtV(patchList)}\n doesn't match ${setElementOrderDirectivePrefix} list:\n${goFmtV(setOrderList)}\n`));
  }
}

/** mergePatchIntoOriginal: apply each $setElementOrder list together with its list, then order the result. */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: Schema, opts: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderDirectivePrefix)) continue;
    const setElementOrderInPatch = patch[key] as JsonValue;
    if (!opts.mergeParallelList) {
      if (Object.hasOwn(original, key)) {
        if (!deepEqual(original[key], setElementOrderInPatch)) fail(sentinel('ErrBadPatchFormatForSetElementOrderList'));
      } else {
        original[key] = setElementOrderInPatch;
      }
    }
    delete patch[key];
    if (!Array.isArray(setElementOrderInPatch)) return fail(mergepatchErr.badArgType('slice', setElementOrderInPatch));
    const setOrder = setElementOrderInPatch;
    const originalKey = extractKey(key, setElementOrderDirectivePrefix);
    const foundOriginal = Object.hasOwn(original, originalKey);
    const foundPatch = Object.hasOwn(patch, originalKey);
    const originalList = original[originalKey] as JsonValue;
    const patchList = patch[originalKey] as JsonValue;
    let originalFieldValue: JsonValue[] = [];
    let patchFieldValue: JsonValue[] = [];
    if (foundOriginal) {
      if (!Array.isArray(originalList)) return fail(mergepatchErr.badArgType('slice', originalList));
      originalFieldValue = originalList;
    }
    if (foundPatch) {
      if (!Array.isArray(patchList)) return fail(mergepatchErr.badArgType('slice', patchList));
      patchFieldValue = patchList;
    }
    const lr = lookupPatchMetadataForSlice(schema, originalKey);
    const { strategy } = extractRetainKeysPatchStrategy(lr.strategies);
    validatePatchWithSetOrderList(patchFieldValue, setOrder, lr.mergeKey);
    let merged: JsonValue[];
    if (foundOriginal && !foundPatch) merged = originalFieldValue;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchFieldValue)[0] as JsonValue[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalFieldValue, patchFieldValue, lr, strategy, false, opts);
    else continue;
    const [patchItems, serverOnlyItems] =
      lr.mergeKey === '' ? partitionPrimitivesByPresentInList(merged, setOrder) : partitionMapsByPresentInList(merged, setOrder, lr.mergeKey);
    const kind = sliceElementType([originalFieldValue, patchFieldValue]);
    original[originalKey] = normalizeElementOrder(patchItems, serverOnlyItems, setOrder, originalFieldValue, lr.mergeKey, kind);
    delete patch[originalKey];
  }
}

function partitionPrimitivesByPresentInList(original: readonly JsonValue[], partitionBy: readonly JsonValue[]): [JsonValue[], JsonValue[]] {
  const inPatch = new Set(partitionBy.map(hashKey));
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of original) (inPatch.has(hashKey(v)) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

function partitionMapsByPresentInList(original: readonly JsonValue[], partitionBy: readonly JsonValue[], mergeKey: string): [JsonValue[], JsonValue[]] {
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of original) {
    if (!isObject(v)) fail(mergepatchErr.badArgType('map', v));
    if (!Object.hasOwn(v, mergeKey)) fail(mergepatchErr.noMergeKey(v, mergeKey));
    (findMapInSlice(partitionBy, partitionBy.length, mergeKey, v[mergeKey] as JsonValue) >= 0 ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

/** findMapInSliceBasedOnKeyValue over m[0:n]: the index of the first map whose `key` equals value, or -1. */
function findMapInSlice(m: readonly JsonValue[], n: number, key: string, value: JsonValue): number {
  for (let k = 0; k < n; k++) {
    const v = m[k];
    if (!isObject(v)) fail(other(`value for key ${k} is not a map.`));
    if (Object.hasOwn(v, key) && goEq(v[key], value)) return k;
  }
  return -1;
}

/** removeDirectives: drop maps carrying $patch (and list items that are such maps); [value, keep]. */
function removeDirectives(obj: JsonValue): [JsonValue, boolean] {
  if (obj === null) return [null, true];
  if (isObject(obj)) {
    if (Object.hasOwn(obj, directiveMarker)) return [null, false];
    for (const k of Object.keys(obj)) {
      const [v, keep] = removeDirectives(obj[k] as JsonValue);
      if (keep) obj[k] = v;
      else delete obj[k];
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const res: JsonValue[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [obj, true];
}

function discardNullValuesFromPatch(v: JsonValue): void {
  if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValuesFromPatch(v[k] as JsonValue);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) discardNullValuesFromPatch(x);
  }
}

function mergeMap(original: JsonObject | null, patch: JsonObject, schema: Schema, opts: MergeOptions): JsonObject {
  if (Object.hasOwn(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  const orig = original ?? {};
  applyRetainKeysDirective(orig, patch, opts);
  mergePatchIntoOriginal(orig, patch, schema, opts);
  for (const patchKey of Object.keys(patch)) {
    let k = patchKey;
    const patchV = patch[patchKey] as JsonValue;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      if (!opts.mergeParallelList) {
        orig[patchKey] = patchV;
        continue;
      }
      k = extractKey(patchKey, deleteFromPrimitiveListDirectivePrefix);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[k];
      if (opts.ignoreUnmatchedNulls) continue;
    }
    const takePatchValue = (): void => {
      if (isDeleteList) return;
      if (opts.ignoreUnmatchedNulls) discardNullValuesFromPatch(patchV);
      const [v, keep] = removeDirectives(patchV);
      if (keep) orig[k] = v;
      else delete orig[k];
    };
    if (!Object.hasOwn(orig, k)) {
      takePatchValue();
      continue;
    }
    const originalValue = orig[k] as JsonValue;
    const t = goType(originalValue);
    if (t !== goType(patchV)) {
      takePatchValue();
      continue;
    }
    if (t === 'map') {
      const lr = lookupPatchMetadataForStruct(schema, k);
      const { strategy } = extractRetainKeysPatchStrategy(lr.strategies);
      orig[k] = strategy !== replaceDirective ? mergeMap(originalValue as JsonObject, patchV as JsonObject, lr.schema, opts) : (patchV as JsonObject);
    } else if (t === 'slice') {
      const lr = lookupPatchMetadataForSlice(schema, k);
      const { strategy } = extractRetainKeysPatchStrategy(lr.strategies);
      orig[k] = mergeSliceHandler(originalValue as JsonValue[], patchV as JsonValue[], lr, strategy, isDeleteList, opts);
    } else {
      const [v, keep] = removeDirectives(patchV);
      if (keep) orig[k] = v;
      else delete orig[k];
    }
  }
  return orig;
}

function mergeSliceHandler(original: JsonValue[], patch: JsonValue[], lr: LookupResult, strategy: string, isDeleteList: boolean, opts: MergeOptions): JsonValue[] {
  // Deletion lists apply whatever the field's strategy.
  if (strategy === mergeDirective || isDeleteList) return mergeSlice(original, patch, lr.schema, lr.elemName, lr.mergeKey, opts, isDeleteList);
  return patch;
}

function mergeSlice(
  original: JsonValue[],
  patch: JsonValue[],
  schema: Schema,
  elemName: string,
  mergeKey: string,
  opts: MergeOptions,
  isDeleteList: boolean,
): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType([original, patch]);
  if (kind !== 'map') {
    if (opts.mergeParallelList && isDeleteList) return deleteFromSlice(original, patch);
    // append(original, patch...) reuses original's array only when patch is
    // empty; the deduplication then rewrites it in place.
    const both = patch.length === 0 ? original : original.concat(patch);
    const merged = both.slice(0, deduplicateScalarsInPlace(both, both.length));
    const [patchItems, serverOnlyItems] = partitionPrimitivesByPresentInList(merged, patch);
    return normalizeElementOrder(patchItems, serverOnlyItems, patch, original, mergeKey, kind);
  }
  if (mergeKey === '') fail(other(`cannot merge lists without merge key for ${elemName}`));

  // A Go slice over `original`'s array: deleting entries shifts that array in
  // place and appends fill its spare tail, all visible to other holders of it.
  let backing = original;
  let len = original.length;
  let cap = original.length;

  // mergeSliceWithSpecialElements
  const patchWithoutSpecialElements: JsonValue[] = [];
  let replace = false;
  for (const v of patch) {
    const typedV = v as JsonObject;
    if (!Object.hasOwn(typedV, directiveMarker)) {
      patchWithoutSpecialElements.push(v);
      continue;
    }
    const patchType = typedV[directiveMarker];
    if (patchType === deleteDirective) {
      if (!Object.hasOwn(typedV, mergeKey)) fail(mergepatchErr.noMergeKey(typedV, mergeKey));
      const mergeValue = typedV[mergeKey] as JsonValue;
      for (;;) {
        const at = findMapInSlice(backing, len, mergeKey, mergeValue);
        if (at < 0) break;
        backing.copyWithin(at, at + 1, len);
        len--;
      }
    } else if (patchType === replaceDirective) {
      replace = true;
    } else if (patchType === mergeDirective) {
      fail(other('merging lists cannot yet be specified in the patch'));
    } else {
      fail(mergepatchErr.badPatchType(patchType, typedV));
    }
  }
  let patchItemsIn = patchWithoutSpecialElements;
  if (replace) {
    backing = patchWithoutSpecialElements;
    len = backing.length;
    cap = Infinity;
    patchItemsIn = [];
  }
  const serverOrderBacking = backing;
  const serverOrderLen = len;

  // mergeSliceWithoutSpecialElements
  for (const v of patchItemsIn) {
    const typedV = v as JsonObject;
    if (!Object.hasOwn(typedV, mergeKey)) fail(mergepatchErr.noMergeKey(typedV, mergeKey));
    const at = findMapInSlice(backing, len, mergeKey, typedV[mergeKey] as JsonValue);
    if (at >= 0) {
      backing[at] = mergeMap(backing[at] as JsonObject, typedV, schema, opts);
    } else if (len < cap) {
      backing[len++] = v;
    } else {
      backing = backing.slice(0, len);
      backing.push(v);
      len++;
      cap = Infinity;
    }
  }
  const merged = backing.slice(0, len);
  const serverOrder = serverOrderBacking.slice(0, serverOrderLen);
  const [patchItems, serverOnlyItems] = partitionMapsByPresentInList(merged, patchItemsIn, mergeKey);
  return normalizeElementOrder(patchItems, serverOnlyItems, patchItemsIn, serverOrder, mergeKey, kind);
}

function deleteFromSlice(current: readonly JsonValue[], toDelete: readonly JsonValue[]): JsonValue[] {
  const del = new Set(toDelete.map(hashKey));
  return current.filter((v) => !del.has(hashKey(v)));
}

// ---- conflicts (CreateThreeWayMergePatch with overwrite=false) ------------

function mergingMapFieldsHaveConflicts(left: JsonValue, right: JsonValue | undefined, schema: Schema, fieldPatchStrategy: string, fieldPatchMergeKey: string): boolean {
  switch (goType(left)) {
    case 'map': {
      if (!isObject(right)) return true;
      const l = left as JsonObject;
      const okLeft = Object.hasOwn(l, directiveMarker);
      const okRight = Object.hasOwn(right, directiveMarker);
      if (okLeft || okRight) {
        if (okLeft !== okRight) return true;
        if (!goEq(l[directiveMarker], right[directiveMarker])) return true;
      }
      if (fieldPatchStrategy === replaceDirective) return false;
      return mapsHaveConflicts(l, right, schema);
    }
    case 'slice':
      if (!Array.isArray(right)) return true;
      return slicesHaveConflicts(left as JsonValue[], right, schema, fieldPatchStrategy, fieldPatchMergeKey);
    default:
      return !deepEqual(left, right);
  }
}

function mapsHaveConflicts(typedLeft: JsonObject, typedRight: JsonObject, schema: Schema): boolean {
  for (const key of Object.keys(typedLeft)) {
    if (key === directiveMarker || key === retainKeysDirective || !Object.hasOwn(typedRight, key)) continue;
    const leftValue = typedLeft[key] as JsonValue;
    let sub: Schema;
    let strategy = '';
    let mergeKey = '';
    const t = goType(leftValue);
    if (t === 'map' || t === 'slice') {
      const lr = t === 'slice' ? lookupPatchMetadataForSlice(schema, key) : lookupPatchMetadataForStruct(schema, key);
      sub = lr.schema;
      strategy = extractRetainKeysPatchStrategy(lr.strategies).strategy;
      mergeKey = lr.mergeKey;
    }
    if (mergingMapFieldsHaveConflicts(leftValue, typedRight[key], sub, strategy, mergeKey)) return true;
  }
  return false;
}

function slicesHaveConflicts(typedLeft: JsonValue[], typedRight: JsonValue[], schema: Schema, fieldPatchStrategy: string, fieldPatchMergeKey: string): boolean {
  const elementType = sliceElementType([typedLeft, typedRight]);
  if (fieldPatchStrategy === mergeDirective) {
    if (elementType !== 'map') return false;
    const leftMap = sliceOfMapsToMapOfMaps(typedLeft, fieldPatchMergeKey);
    const rightMap = sliceOfMapsToMapOfMaps(typedRight, fieldPatchMergeKey);
    for (const [key, lv] of leftMap) {
      const rv = rightMap.get(key);
      if (rv !== undefined && mergingMapFieldsHaveConflicts(lv, rv, schema, '', '')) return true;
    }
    return false;
  }
  if (typedLeft.length !== typedRight.length) return true;
  let l = typedLeft;
  let r = typedRight;
  if (elementType !== 'map') {
    l = deduplicateAndSortScalars(l);
    r = deduplicateAndSortScalars(r);
  }
  for (let i = 0; i < l.length; i++) if (mergingMapFieldsHaveConflicts(l[i] as JsonValue, r[i], schema, '', '')) return true;
  return false;
}

function sliceOfMapsToMapOfMaps(slice: JsonValue[], mergeKey: string): Map<string, JsonObject> {
  const result = new Map<string, JsonObject>();
  for (const value of slice) {
    if (!isObject(value)) fail(other(`invalid element type in merging list:${goFmtV(slice)}`));
    if (!Object.hasOwn(value, mergeKey)) fail(other(`cannot find merge key \`${mergeKey}\` in merging list element:${goFmtV(value)}`));
    result.set(goFmtS(value[mergeKey]), value);
  }
  return result;
}
