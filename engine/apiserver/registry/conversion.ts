// Resources served in more than one shape over one storage: events (core/v1
// and events.k8s.io/v1, either shape stored) and HorizontalPodAutoscalers
// (autoscaling/v2 stored, autoscaling/v1 converted both ways).
import type { KObject } from '../../apimachinery/types';
import { toCoreEvent, toEventsV1 } from './eventConversion';
import { hpaFromV1, hpaToV1 } from './autoscalingConversion';

/** An endpoint: its resource (a read) or the kind it takes (a body). */
interface Served {
  group: string;
  version: string;
  resource?: string;
  kind?: string;
}

const isHpaV1 = (r: Served) => r.group === 'autoscaling' && r.version === 'v1' && (r.resource === 'horizontalpodautoscalers' || r.kind === 'HorizontalPodAutoscaler');

/** The stored object in the shape its endpoint serves. */
export function servedShape(r: Served, o: KObject): KObject {
  if (r.resource === 'events') return r.group === 'events.k8s.io' ? toEventsV1(o) : toCoreEvent(o);
  if (isHpaV1(r)) return hpaToV1(o);
  return o;
}

/** A body sent to the endpoint in the shape it is stored, validated and admitted in. */
export function storedShape(r: Served, o: KObject): KObject {
  return isHpaV1(r) ? hpaFromV1(o) : o;
}
