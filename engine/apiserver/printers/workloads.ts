// Printers for the workload controllers' objects (pkg/printers/internalversion/printers.go, v1.32).
import type { KObject } from '../../apimachinery/types';
import { formatLabels, formatLabelSelector, labelSelectorAsSelector, toString, type LabelSelector } from '../../apimachinery/selectors/labels';
import { humanDuration, parseTime, translateTimestampSince } from './age';
import { AGE_COLUMN, col, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, type Printer } from './types';
import {
  age,
  arr,
  boolPtr,
  int,
  intOrString,
  isObj,
  layoutContainerCells,
  lower,
  name,
  obj,
  optInt,
  optStr,
  quantityPtr,
  spec,
  status,
  str,
  strMap,
  templateContainers,
  type Obj,
} from './util';

/** A LabelSelector field as the printers take it: absent is a nil pointer. */
const selectorOf = (v: unknown): LabelSelector | null => (isObj(v) ? (v as LabelSelector) : null);

export const deploymentPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', { text: 'Number of the pod with ready state' }),
    col('Up-to-date', 'string', 'deploy.status.updatedReplicas'),
    col('Available', 'string', 'deploy.status.availableReplicas'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    col('Selector', 'string', 'deploy.spec.selector', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const sel = labelSelectorAsSelector(selectorOf(sp['selector']));
    // Unlike the other printers, Deployments print "" for no selector and "<invalid>" for a bad one.
    const selectorString = sel.ok ? toString(sel.selector) : '<invalid>';
    const [names, images] = layoutContainerCells(templateContainers(sp));
    return {
      cells: [
        name(o),
        `${int(st['readyReplicas'])}/${int(sp['replicas'])}`,
        int(st['updatedReplicas']),
        int(st['availableReplicas']),
        age(o, now),
        names,
        images,
        selectorString,
      ],
    };
  },
};

const replicaColumns = (
  desired: 'rs.spec.replicas' | 'rc.spec.replicas',
  current: 'rs.status.replicas' | 'rc.status.replicas',
  ready: 'rs.status.readyReplicas' | 'rc.status.readyReplicas',
  selector: 'rs.spec.selector' | 'rc.spec.selector',
) => [
  NAME_COLUMN,
  col('Desired', 'integer', desired),
  col('Current', 'integer', current),
  col('Ready', 'integer', ready),
  AGE_COLUMN,
  CONTAINERS_COLUMN,
  IMAGES_COLUMN,
  col('Selector', 'string', selector, { priority: 1 }),
];

export const replicaSetPrinter: Printer = {
  columns: replicaColumns('rs.spec.replicas', 'rs.status.replicas', 'rs.status.readyReplicas', 'rs.spec.selector'),
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const [names, images] = layoutContainerCells(templateContainers(sp));
    return {
      cells: [
        name(o),
        int(sp['replicas']),
        int(st['replicas']),
        int(st['readyReplicas']),
        age(o, now),
        names,
        images,
        formatLabelSelector(selectorOf(sp['selector'])),
      ],
    };
  },
};

export const replicationControllerPrinter: Printer = {
  columns: replicaColumns('rc.spec.replicas', 'rc.status.replicas', 'rc.status.readyReplicas', 'rc.spec.selector'),
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    // The template is optional on a ReplicationController.
    const [names, images] = layoutContainerCells(isObj(sp['template']) ? templateContainers(sp) : []);
    return {
      cells: [name(o), int(sp['replicas']), int(st['replicas']), int(st['readyReplicas']), age(o, now), names, images, formatLabels(strMap(sp['selector']))],
    };
  },
};

export const statefulSetPrinter: Printer = {
  columns: [NAME_COLUMN, col('Ready', 'string', { text: 'Number of the pod with ready state' }), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  print(o, now) {
    const sp = spec(o);
    const [names, images] = layoutContainerCells(templateContainers(sp));
    return { cells: [name(o), `${int(status(o)['readyReplicas'])}/${int(sp['replicas'])}`, age(o, now), names, images] };
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'ds.status.desiredNumberScheduled'),
    col('Current', 'integer', 'ds.status.currentNumberScheduled'),
    col('Ready', 'integer', 'ds.status.numberReady'),
    col('Up-to-date', 'integer', 'ds.status.updatedNumberScheduled'),
    col('Available', 'integer', 'ds.status.numberAvailable'),
    col('Node Selector', 'string', 'pod.spec.nodeSelector'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    col('Selector', 'string', 'ds.spec.selector', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const podSpec = obj(obj(sp['template'])['spec']);
    const [names, images] = layoutContainerCells(podSpec['containers']);
    return {
      cells: [
        name(o),
        int(st['desiredNumberScheduled']),
        int(st['currentNumberScheduled']),
        int(st['numberReady']),
        int(st['updatedNumberScheduled']),
        int(st['numberAvailable']),
        formatLabels(strMap(podSpec['nodeSelector'])),
        age(o, now),
        names,
        images,
        formatLabelSelector(selectorOf(sp['selector'])),
      ],
    };
  },
};

/** hasJobCondition: the first condition of the type decides. */
function hasJobCondition(conditions: Obj[], type: string): boolean {
  const c = conditions.find((x) => str(x['type']) === type);
  return c !== undefined && str(c['status']) === 'True';
}

export const jobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', { text: 'Status of the job.' }),
    col('Completions', 'string', 'job.status.succeeded'),
    col('Duration', 'string', { text: 'Time required to complete the job.' }),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    col('Selector', 'string', 'job.spec.selector', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const succeeded = int(st['succeeded']);
    const completionsSpec = optInt(sp['completions']);
    let completions: string;
    if (completionsSpec !== undefined) completions = `${succeeded}/${completionsSpec}`;
    else {
      const parallelism = optInt(sp['parallelism']) ?? 0;
      completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }
    const start = parseTime(st['startTime']);
    const completion = parseTime(st['completionTime']);
    let jobDuration = '';
    if (start !== undefined) jobDuration = humanDuration((completion ?? now) - start);
    const conditions = arr(st['conditions']).map(obj);
    let jobStatus: string;
    if (hasJobCondition(conditions, 'Complete')) jobStatus = 'Complete';
    else if (hasJobCondition(conditions, 'Failed')) jobStatus = 'Failed';
    else if (o.metadata.deletionTimestamp != null) jobStatus = 'Terminating';
    else if (hasJobCondition(conditions, 'Suspended')) jobStatus = 'Suspended';
    else if (hasJobCondition(conditions, 'FailureTarget')) jobStatus = 'FailureTarget';
    else jobStatus = 'Running';
    const [names, images] = layoutContainerCells(templateContainers(sp));
    return { cells: [name(o), jobStatus, completions, jobDuration, age(o, now), names, images, formatLabelSelector(selectorOf(sp['selector']))] };
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Schedule', 'string', 'cj.spec.schedule'),
    col('Timezone', 'string', 'cj.spec.timeZone'),
    col('Suspend', 'boolean', 'cj.spec.suspend'),
    col('Active', 'integer', 'cj.status.active'),
    col('Last Schedule', 'string', 'cj.status.lastScheduleTime'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    col('Selector', 'string', 'job.spec.selector', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const jobSpec = obj(obj(sp['jobTemplate'])['spec']);
    const lastScheduleTime = st['lastScheduleTime'] == null ? '<none>' : translateTimestampSince(st['lastScheduleTime'], now);
    const [names, images] = layoutContainerCells(templateContainers(jobSpec));
    return {
      cells: [
        name(o),
        str(sp['schedule']),
        optStr(sp['timeZone']) ?? '<none>',
        boolPtr(sp['suspend']),
        arr(st['active']).length,
        lastScheduleTime,
        age(o, now),
        names,
        images,
        formatLabelSelector(selectorOf(jobSpec['selector'])),
      ],
    };
  },
};

/** metav1.GetControllerOf. */
function controllerOf(o: KObject) {
  return (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

export const controllerRevisionPrinter: Printer = {
  columns: [NAME_COLUMN, col('Controller', 'string', { text: 'Controller of the object' }), col('Revision', 'string', 'cr.revision'), AGE_COLUMN],
  print(o, now) {
    const ref = controllerOf(o);
    let controllerName = '<none>';
    if (ref) {
      // formatResourceName(GroupKind, name, withKind): `kind.group/name`, lower-cased.
      const slash = ref.apiVersion.indexOf('/');
      const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
      const gk = group === '' ? ref.kind : `${ref.kind}.${group}`;
      controllerName = gk === '' ? ref.name : `${lower(gk)}/${ref.name}`;
    }
    return { cells: [name(o), controllerName, int(o['revision']), age(o, now)] };
  },
};

/** formatHPAMetrics: at most two metrics, then "+ N more...". */
function formatHPAMetrics(specs: Obj[], statuses: Obj[]): string {
  if (specs.length === 0) return '<none>';
  const list: string[] = [];
  const max = 2;
  specs.forEach((s, i) => {
    const statusOf = (field: string): Obj | undefined => {
      const x = statuses[i]?.[field];
      return isObj(x) ? x : undefined;
    };
    switch (str(s['type'])) {
      case 'External':
      case 'Object': {
        const field = str(s['type']) === 'External' ? 'external' : 'object';
        const target = obj(obj(s[field])['target']);
        const cur = statusOf(field);
        if (target['averageValue'] != null) {
          const current = cur && obj(cur['current'])['averageValue'] != null ? quantityPtr(obj(cur['current'])['averageValue']) : '<unknown>';
          list.push(`${current}/${quantityPtr(target['averageValue'])} (avg)`);
        } else {
          const current = cur ? quantityPtr(obj(cur['current'])['value']) : '<unknown>';
          list.push(`${current}/${quantityPtr(target['value'])}`);
        }
        break;
      }
      case 'Pods': {
        const cur = statusOf('pods');
        const current = cur ? quantityPtr(obj(cur['current'])['averageValue']) : '<unknown>';
        list.push(`${current}/${quantityPtr(obj(obj(s['pods'])['target'])['averageValue'])}`);
        break;
      }
      case 'Resource':
      case 'ContainerResource': {
        const field = str(s['type']) === 'Resource' ? 'resource' : 'containerResource';
        const src = obj(s[field]);
        const target = obj(src['target']);
        const cur = statusOf(field);
        if (target['averageValue'] != null) {
          const current = cur ? quantityPtr(obj(cur['current'])['averageValue']) : '<unknown>';
          list.push(`${str(src['name'])}: ${current}/${quantityPtr(target['averageValue'])}`);
        } else {
          const util = cur ? optInt(obj(cur['current'])['averageUtilization']) : undefined;
          const current = util !== undefined ? `${util}%` : '<unknown>';
          const t = optInt(target['averageUtilization']);
          list.push(`${str(src['name'])}: ${current}/${t !== undefined ? `${t}%` : '<auto>'}`);
        }
        break;
      }
      default:
        list.push('<unknown type>');
    }
  });
  const count = specs.length;
  if (count > max) return `${list.slice(0, max).join(', ')} + ${count - max} more...`;
  return list.join(', ');
}

export const hpaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Reference', 'string', 'hpa.spec.scaleTargetRef'),
    col('Targets', 'string', 'hpa.spec.metrics'),
    col('MinPods', 'string', 'hpa.spec.minReplicas'),
    col('MaxPods', 'string', 'hpa.spec.maxReplicas'),
    col('Replicas', 'string', 'hpa.status.currentReplicas'),
    AGE_COLUMN,
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const ref = obj(sp['scaleTargetRef']);
    const minReplicas = optInt(sp['minReplicas']);
    return {
      cells: [
        name(o),
        `${str(ref['kind'])}/${str(ref['name'])}`,
        formatHPAMetrics(arr(sp['metrics']).map(obj), arr(st['currentMetrics']).map(obj)),
        minReplicas === undefined ? '<unset>' : String(minReplicas),
        int(sp['maxReplicas']),
        int(st['currentReplicas']),
        age(o, now),
      ],
    };
  },
};

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Min Available', 'string', { text: 'The minimum number of pods that must be available.' }),
    col('Max Unavailable', 'string', { text: 'The maximum number of pods that may be unavailable.' }),
    col('Allowed Disruptions', 'integer', { text: 'Calculated number of pods that may be disrupted at this time.' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const sp = spec(o);
    const minAvailable = sp['minAvailable'] == null ? 'N/A' : intOrString(sp['minAvailable']);
    const maxUnavailable = sp['maxUnavailable'] == null ? 'N/A' : intOrString(sp['maxUnavailable']);
    return { cells: [name(o), minAvailable, maxUnavailable, int(status(o)['disruptionsAllowed']), age(o, now)] };
  },
};
