// Pod-level requests and limits (component-helpers/resource PodRequests /
// PodLimits, as LimitRanger and the quota pod evaluator use them): the sum of
// the app containers and restartable (sidecar) init containers, at least the
// largest regular init container plus the sidecars started before it, plus
// the pod overhead for requests.
import { path, rec, recs, str, type Rec } from './json';
import { addInto, maxInto, parseResourceList, type ResourceList } from './quantity';

export function containersOf(spec: Rec | undefined): Rec[] {
  return recs(spec?.['containers']);
}

export function initContainersOf(spec: Rec | undefined): Rec[] {
  return recs(spec?.['initContainers']);
}

export function containerRequests(c: Rec): ResourceList {
  return parseResourceList(path(c, 'resources', 'requests'));
}

export function containerLimits(c: Rec): ResourceList {
  return parseResourceList(path(c, 'resources', 'limits'));
}

function aggregate(spec: Rec | undefined, pick: (c: Rec) => ResourceList): ResourceList {
  const total: ResourceList = new Map();
  for (const c of containersOf(spec)) addInto(total, pick(c));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of initContainersOf(spec)) {
    const own = pick(c);
    if (str(c['restartPolicy']) === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(initMax, new Map(sidecars));
    } else {
      const tmp: ResourceList = new Map();
      addInto(tmp, own);
      addInto(tmp, sidecars);
      maxInto(initMax, tmp);
    }
  }
  maxInto(total, initMax);
  return total;
}

export function podRequests(spec: Rec | undefined, withOverhead = true): ResourceList {
  const reqs = aggregate(spec, containerRequests);
  if (withOverhead) {
    // Overhead is added to every request; to limits only where a limit exists.
    addInto(reqs, parseResourceList(rec(spec)?.['overhead']));
  }
  return reqs;
}

export function podLimits(spec: Rec | undefined, withOverhead = true): ResourceList {
  const lims = aggregate(spec, containerLimits);
  if (withOverhead) {
    const overhead = parseResourceList(rec(spec)?.['overhead']);
    for (const [k, q] of overhead) if (lims.has(k)) addInto(lims, new Map([[k, q]]));
  }
  return lims;
}
