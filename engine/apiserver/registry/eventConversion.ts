// core/v1 Event ⇄ events.k8s.io/v1 Event (pkg/apis/events/v1/conversion.go):
// both groups serve the same stored events, each in its own shape. Stored
// events may be in either shape (whoever wrote them); reads convert to the
// shape of the group asked.
import type { KObject } from '../../apimachinery/types';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isEventsV1Shape(o: KObject): boolean {
  return isObj(o['regarding']) || 'note' in o || 'reportingController' in o || 'deprecatedSource' in o;
}

/** To core/v1: involvedObject, message, source, first/lastTimestamp, count, reportingComponent. */
export function toCoreEvent(o: KObject): KObject {
  if (!isEventsV1Shape(o)) return o;
  const { regarding, note, deprecatedSource, deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, reportingController, ...rest } = o as KObject & Record<string, unknown>;
  const out: KObject = {
    ...rest,
    involvedObject: isObj(regarding) ? regarding : {},
    ...(note !== undefined ? { message: note } : {}),
    source: isObj(deprecatedSource) ? deprecatedSource : {},
    firstTimestamp: deprecatedFirstTimestamp ?? null,
    lastTimestamp: deprecatedLastTimestamp ?? null,
    ...(typeof deprecatedCount === 'number' && deprecatedCount !== 0 ? { count: deprecatedCount } : {}),
    ...(reportingController !== undefined ? { reportingComponent: reportingController } : { reportingComponent: '' }),
    reportingInstance: (o['reportingInstance'] as string | undefined) ?? '',
  };
  return out;
}

/** To events.k8s.io/v1: regarding, note, deprecated* fields, reportingController. */
export function toEventsV1(o: KObject): KObject {
  if (isEventsV1Shape(o)) return o;
  const { involvedObject, message, source, firstTimestamp, lastTimestamp, count, reportingComponent, ...rest } = o as KObject & Record<string, unknown>;
  const src = isObj(source) && Object.keys(source).length > 0 ? source : undefined;
  return {
    ...rest,
    ...(isObj(involvedObject) ? { regarding: involvedObject } : {}),
    ...(message !== undefined ? { note: message } : {}),
    ...(reportingComponent ? { reportingController: reportingComponent } : {}),
    ...(src ? { deprecatedSource: src } : {}),
    ...(firstTimestamp ? { deprecatedFirstTimestamp: firstTimestamp } : {}),
    ...(lastTimestamp ? { deprecatedLastTimestamp: lastTimestamp } : {}),
    ...(typeof count === 'number' && count !== 0 ? { deprecatedCount: count } : {}),
  };
}
