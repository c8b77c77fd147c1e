// Patch machinery of Kubernetes v1.32: JSON Patch (RFC 6902), JSON Merge
// Patch (RFC 7386), strategic merge patch with the patch metadata of the
// built-in types, and the PATCH step of the API server that ties them together.
export { applyJsonPatch, createJsonPatch, escapePointerToken, unescapePointerToken, MAX_JSON_PATCH_OPERATIONS } from './jsonPatch';
export type { JsonPatchOp, JsonPatchResult } from './jsonPatch';
export { applyMergePatch, applyMergePatchV4, createMergePatch } from './jsonMergePatch';
export type { MergePatchV4Result } from './jsonMergePatch';
export { applyStrategicMergePatch, createThreeWayMergePatch, createTwoWayMergePatch, mergingMapsHaveConflicts } from './strategicMerge';
export type { PreconditionFunc } from './strategicMerge';
export { builtinPatchMeta, patchMetaFor } from './patchMeta';
export type { FieldPatchMeta, PatchStrategyTag, StructPatchMeta } from './patchMeta';
export type { MergePatchErrorKind, PatchResult } from './errors';
export { applyPatch, interpretStrategicMergePatchError, pruneDirectiveKeys } from './apply';
export type { PatchOutcome, PatchType } from './apply';
