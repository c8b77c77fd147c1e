// core/v1 Event ⇄ events.k8s.io/v1 Event (pkg/apis/events/v1/conversion.go):
// both groups serve the same stored events, each in its own shape. Stored
// events may be in either shape (whoever wrote them); reads convert to the
// shape of the group asked.
import type { KObject } from '../../apimachinery/types';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isEventsV1Shape(o: KObject): boolean {
  return isObj(o['regarding']) || 'note' in o || 'reportingController' in o || 'deprecatedSource' in o;
}

/**
 * To core/v1: involvedObject, message, source, first/lastTimestamp, count,
 * reportingComponent. As Go writes the type: involvedObject and source are
 * structs (`{}`), the times structs (`null`), reportingComponent and
 * reportingInstance strings without omitempty (`""`).
 */
export function toCoreEvent(o: KObject): KObject {
  if (!isEventsV1Shape(o)) return coreShape(o);
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
  return coreShape(out);
}

/** A copy: `o` may be the watch cache's. */
function coreShape(o: KObject): KObject {
  const e = { ...o } as KObject & Record<string, unknown>;
  if (!isObj(e['involvedObject'])) e['involvedObject'] = {};
  if (!isObj(e['source'])) e['source'] = {};
  for (const k of ['firstTimestamp', 'lastTimestamp', 'eventTime']) if (e[k] === undefined) e[k] = null;
  for (const k of ['reportingComponent', 'reportingInstance']) if (e[k] === undefined || e[k] === null) e[k] = '';
  return e;
}

/**
 * To events.k8s.io/v1: regarding, note, deprecated* fields, reportingController.
 * Go writes deprecatedSource (a struct) as `{}` and the deprecated times as
 * `null` even when unset, and omits empty reportingController/Instance.
 */
export function toEventsV1(o: KObject): KObject {
  if (isEventsV1Shape(o)) return v1Shape(o);
  const { involvedObject, message, source, firstTimestamp, lastTimestamp, count, reportingComponent, ...rest } = o as KObject & Record<string, unknown>;
  return v1Shape({
    ...rest,
    ...(isObj(involvedObject) ? { regarding: involvedObject } : {}),
    ...(message !== undefined ? { note: message } : {}),
    ...(reportingComponent ? { reportingController: reportingComponent } : {}),
    deprecatedSource: isObj(source) ? source : {},
    deprecatedFirstTimestamp: firstTimestamp ?? null,
    deprecatedLastTimestamp: lastTimestamp ?? null,
    ...(typeof count === 'number' && count !== 0 ? { deprecatedCount: count } : {}),
  });
}

function v1Shape(o: KObject): KObject {
  const e = { ...o } as KObject & Record<string, unknown>;
  if (!isObj(e['regarding'])) e['regarding'] = {};
  if (!isObj(e['deprecatedSource'])) e['deprecatedSource'] = {};
  for (const k of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'eventTime']) if (e[k] === undefined) e[k] = null;
  for (const k of ['reportingController', 'reportingInstance']) if (e[k] === '' || e[k] === null) delete e[k];
  return e;
}
