// Decoded gateway requests -> the engine's request bodies.
import type { RequestType } from '../../engine/etcd/server/messages';
import type { Internal } from './codec';

/**
 * The decoded JSON is already in the engine's shapes (rpc.ts uses the JSON
 * names); only defaults the engine expects explicitly are filled in.
 */
export function toEngineRequest(type: RequestType, v: Internal): unknown {
  switch (type) {
    case 'RangeRequest':
    case 'PutRequest':
    case 'DeleteRangeRequest':
      return { ...v, key: (v.key as string | undefined) ?? '' };
    case 'CompactionRequest':
      return { ...v, revision: (v.revision as number | undefined) ?? 0 };
    case 'LeaseGrantRequest':
      return { TTL: (v.TTL as number | undefined) ?? 0, ID: (v.ID as number | undefined) ?? 0 };
    case 'LeaseRevokeRequest':
    case 'LeaseKeepAliveRequest':
      return { ID: (v.ID as number | undefined) ?? 0 };
    case 'LeaseTimeToLiveRequest':
      return { ID: (v.ID as number | undefined) ?? 0, keys: v.keys === true };
    case 'WatchCreateRequest':
      return { ...v, key: (v.key as string | undefined) ?? '' };
    default:
      return v;
  }
}
