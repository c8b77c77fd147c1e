// Printers for nodes, namespaces, events, config, storage, RBAC, scheduling
// and admission objects (pkg/printers/internalversion/printers.go, v1.32).
import type { KObject } from '../../apimachinery/types';
import { parseTime, translateTimestampSince } from './age';
import { AGE_COLUMN, col, NAME_COLUMN, type Printer } from './types';
import { age, arr, int, isObj, name, obj, optStr, quantity, sortedUnique, spec, status, str, strMap, type Obj } from './util';

const LABEL_NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
const NODE_LABEL_ROLE = 'kubernetes.io/role';

/** findNodeRoles: `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role=<role>`. */
function findNodeRoles(labels: Record<string, string>): string[] {
  const roles: string[] = [];
  for (const [k, v] of Object.entries(labels)) {
    if (k.startsWith(LABEL_NODE_ROLE_PREFIX)) {
      const role = k.slice(LABEL_NODE_ROLE_PREFIX.length);
      if (role.length > 0) roles.push(role);
    } else if (k === NODE_LABEL_ROLE && v !== '') roles.push(v);
  }
  return sortedUnique(roles);
}

function nodeAddress(st: Obj, type: string): string {
  const a = arr(st['addresses'])
    .map(obj)
    .find((x) => str(x['type']) === type);
  return a ? str(a['address']) : '<none>';
}

export const nodePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', { text: 'The status of the node' }),
    col('Roles', 'string', { text: 'The roles of the node' }),
    AGE_COLUMN,
    col('Version', 'string', 'node.info.kubeletVersion'),
    col('Internal-IP', 'string', 'node.status.addresses', { priority: 1 }),
    col('External-IP', 'string', 'node.status.addresses', { priority: 1 }),
    col('OS-Image', 'string', 'node.info.osImage', { priority: 1 }),
    col('Kernel-Version', 'string', 'node.info.kernelVersion', { priority: 1 }),
    col('Container-Runtime', 'string', 'node.info.containerRuntimeVersion', { priority: 1 }),
  ],
  print(o, now) {
    const st = status(o);
    // Upstream fills a map by type, so the last Ready condition listed wins.
    const ready = arr(st['conditions'])
      .map(obj)
      .filter((c) => str(c['type']) === 'Ready')
      .at(-1);
    const statuses = ready ? [str(ready['status']) === 'True' ? 'Ready' : 'NotReady'] : ['Unknown'];
    if (spec(o)['unschedulable'] === true) statuses.push('SchedulingDisabled');
    const roles = findNodeRoles(o.metadata.labels ?? {}).join(',') || '<none>';
    const info = obj(st['nodeInfo']);
    return {
      cells: [
        name(o),
        statuses.join(','),
        roles,
        age(o, now),
        str(info['kubeletVersion']),
        nodeAddress(st, 'InternalIP'),
        nodeAddress(st, 'ExternalIP'),
        str(info['osImage']) || '<unknown>',
        str(info['kernelVersion']) || '<unknown>',
        str(info['containerRuntimeVersion']) || '<unknown>',
      ],
    };
  },
};

export const namespacePrinter: Printer = {
  columns: [NAME_COLUMN, col('Status', 'string', { text: 'The status of the namespace' }), AGE_COLUMN],
  print(o, now) {
    return { cells: [name(o), str(status(o)['phase']), age(o, now)] };
  },
};

/** The internal Event both served shapes convert to (pkg/apis/events/v1 conversion for events.k8s.io). */
interface EventView {
  involvedObject: Obj;
  source: Obj;
  message: string;
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  eventTime: unknown;
  count: number;
  series: Obj | undefined;
  reportingController: string;
  reportingInstance: string;
}

function eventView(o: KObject): EventView {
  // Decided by shape, not apiVersion: callers may stamp either group's apiVersion on stored events.
  const modern = isObj(o['regarding']) || (!isObj(o['involvedObject']) && o.apiVersion === 'events.k8s.io/v1');
  const series = isObj(o['series']) ? o['series'] : undefined;
  return modern
    ? {
        involvedObject: obj(o['regarding']),
        source: obj(o['deprecatedSource']),
        message: str(o['note']),
        firstTimestamp: o['deprecatedFirstTimestamp'],
        lastTimestamp: o['deprecatedLastTimestamp'],
        eventTime: o['eventTime'],
        count: int(o['deprecatedCount']),
        series,
        reportingController: str(o['reportingController']),
        reportingInstance: str(o['reportingInstance']),
      }
    : {
        involvedObject: obj(o['involvedObject']),
        source: obj(o['source']),
        message: str(o['message']),
        firstTimestamp: o['firstTimestamp'],
        lastTimestamp: o['lastTimestamp'],
        eventTime: o['eventTime'],
        count: int(o['count']),
        series,
        // core/v1 calls ReportingController "reportingComponent".
        reportingController: str(o['reportingComponent']),
        reportingInstance: str(o['reportingInstance']),
      };
}

/** formatEventSource: component (or reporting controller), then ", host" (or instance) when known. */
function formatEventSource(source: Obj, reportingController: string, reportingInstance: string): string {
  const component = str(source['component']) || reportingController;
  const instance = str(source['host']) || reportingInstance;
  return instance === '' ? component : `${component}, ${instance}`;
}

export const eventPrinter: Printer = {
  columns: [
    col('Last Seen', 'string', 'ev.lastTimestamp'),
    col('Type', 'string', 'ev.type'),
    col('Reason', 'string', 'ev.reason'),
    col('Object', 'string', 'ev.involvedObject'),
    col('Subobject', 'string', 'objref.fieldPath', { priority: 1 }),
    col('Source', 'string', 'ev.source', { priority: 1 }),
    col('Message', 'string', 'ev.message'),
    col('First Seen', 'string', 'ev.firstTimestamp', { priority: 1 }),
    col('Count', 'string', 'ev.count', { priority: 1 }),
    col('Name', 'string', 'meta.name', { priority: 1, format: 'name' }),
  ],
  print(o, now) {
    const e = eventView(o);
    const first = parseTime(e.firstTimestamp) === undefined ? translateTimestampSince(e.eventTime, now) : translateTimestampSince(e.firstTimestamp, now);
    let last = parseTime(e.lastTimestamp) === undefined ? first : translateTimestampSince(e.lastTimestamp, now);
    let count = e.count;
    if (e.series) {
      last = translateTimestampSince(e.series['lastObservedTime'], now);
      count = int(e.series['count']);
    } else if (count === 0) {
      // Singleton events carry no count in the new API.
      count = 1;
    }
    const kind = str(e.involvedObject['kind']).toLowerCase();
    const involvedName = str(e.involvedObject['name']);
    const target = involvedName.length > 0 ? `${kind}/${involvedName}` : kind;
    return {
      cells: [
        last,
        str(o['type']),
        str(o['reason']),
        target,
        str(e.involvedObject['fieldPath']),
        formatEventSource(e.source, e.reportingController, e.reportingInstance),
        e.message.trim(),
        first,
        count,
        name(o),
      ],
    };
  },
};

export const leasePrinter: Printer = {
  columns: [NAME_COLUMN, col('Holder', 'string', 'lease.spec.holderIdentity'), AGE_COLUMN],
  print(o, now) {
    return { cells: [name(o), str(spec(o)['holderIdentity']), age(o, now)] };
  },
};

export const configMapPrinter: Printer = {
  columns: [NAME_COLUMN, col('Data', 'string', 'cm.data'), AGE_COLUMN],
  print(o, now) {
    return { cells: [name(o), Object.keys(obj(o['data'])).length + Object.keys(obj(o['binaryData'])).length, age(o, now)] };
  },
};

export const secretPrinter: Printer = {
  columns: [NAME_COLUMN, col('Type', 'string', 'secret.type'), col('Data', 'string', 'secret.data'), AGE_COLUMN],
  print(o, now) {
    // stringData merges into data on the way in; count both in case it was stored unmerged.
    const keys = new Set([...Object.keys(obj(o['data'])), ...Object.keys(obj(o['stringData']))]);
    return { cells: [name(o), str(o['type']), keys.size, age(o, now)] };
  },
};

export const serviceAccountPrinter: Printer = {
  columns: [NAME_COLUMN, col('Secrets', 'string', 'sa.secrets'), AGE_COLUMN],
  print(o, now) {
    return { cells: [name(o), arr(o['secrets']).length, age(o, now)] };
  },
};

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order. */
function accessModes(modes: unknown): string {
  const set = new Set(arr(modes).map(str));
  const out: string[] = [];
  if (set.has('ReadWriteOnce')) out.push('RWO');
  if (set.has('ReadOnlyMany')) out.push('ROX');
  if (set.has('ReadWriteMany')) out.push('RWX');
  if (set.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

function betaStorageClass(o: KObject): string | undefined {
  const a = o.metadata.annotations ?? {};
  return Object.prototype.hasOwnProperty.call(a, BETA_STORAGE_CLASS_ANNOTATION) ? a[BETA_STORAGE_CLASS_ANNOTATION] : undefined;
}

const deletingPhase = (o: KObject, phase: string) => (o.metadata.deletionTimestamp != null ? 'Terminating' : phase);

export const persistentVolumePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Capacity', 'string', 'pv.spec.capacity'),
    col('Access Modes', 'string', 'pv.spec.accessModes'),
    col('Reclaim Policy', 'string', 'pv.spec.persistentVolumeReclaimPolicy'),
    col('Status', 'string', 'pv.status.phase'),
    col('Claim', 'string', 'pv.spec.claimRef'),
    col('StorageClass', 'string', { text: 'StorageClass of the pv' }),
    col('VolumeAttributesClass', 'string', { text: 'VolumeAttributesClass of the pv' }),
    col('Reason', 'string', 'pv.status.reason'),
    AGE_COLUMN,
    col('VolumeMode', 'string', 'pv.spec.volumeMode', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const claimRef = isObj(sp['claimRef']) ? `${str(sp['claimRef']['namespace'])}/${str(sp['claimRef']['name'])}` : '';
    return {
      cells: [
        name(o),
        quantity(obj(sp['capacity'])['storage']),
        accessModes(sp['accessModes']),
        str(sp['persistentVolumeReclaimPolicy']),
        deletingPhase(o, str(st['phase'])),
        claimRef,
        betaStorageClass(o) ?? str(sp['storageClassName']),
        optStr(sp['volumeAttributesClassName']) ?? '<unset>',
        str(st['reason']),
        age(o, now),
        optStr(sp['volumeMode']) ?? '<unset>',
      ],
    };
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'pvc.status.phase'),
    col('Volume', 'string', 'pvc.spec.volumeName'),
    col('Capacity', 'string', 'pvc.status.capacity'),
    col('Access Modes', 'string', 'pvc.status.accessModes'),
    col('StorageClass', 'string', { text: 'StorageClass of the pvc' }),
    col('VolumeAttributesClass', 'string', { text: 'VolumeAttributesClass of the pvc' }),
    AGE_COLUMN,
    col('VolumeMode', 'string', 'pvc.spec.volumeMode', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const st = status(o);
    const volumeName = str(sp['volumeName']);
    // Capacity and modes only mean something once the claim is bound to a volume.
    const bound = volumeName !== '';
    return {
      cells: [
        name(o),
        deletingPhase(o, str(st['phase'])),
        volumeName,
        bound ? quantity(obj(st['capacity'])['storage']) : '',
        bound ? accessModes(st['accessModes']) : '',
        betaStorageClass(o) ?? optStr(sp['storageClassName']) ?? '',
        optStr(sp['volumeAttributesClassName']) ?? '<unset>',
        age(o, now),
        optStr(sp['volumeMode']) ?? '<unset>',
      ],
    };
  },
};

export const resourceQuotaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Request', 'string', { text: 'Request represents a minimum amount of cpu/memory that a container may consume.' }),
    col('Limit', 'string', {
      text: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const st = status(o);
    const hard = obj(st['hard']);
    const used = obj(st['used']);
    const requests: string[] = [];
    const limits: string[] = [];
    for (const resource of Object.keys(hard).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const pieces = resource.split('.');
      const line = `${resource}: ${quantity(used[resource])}/${quantity(hard[resource])}`;
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(line);
    }
    return { cells: [name(o), requests.join(', '), limits.join(', '), age(o, now)] };
  },
};

/** rbac.SubjectsStrings: users, groups, and `namespace/name` service accounts. */
function subjectsStrings(subjects: unknown): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of arr(subjects).map(obj)) {
    switch (str(s['kind'])) {
      case 'ServiceAccount':
        sas.push(`${str(s['namespace'])}/${str(s['name'])}`);
        break;
      case 'User':
        users.push(str(s['name']));
        break;
      case 'Group':
        groups.push(str(s['name']));
        break;
    }
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingPrinter(kind: 'roleBinding' | 'clusterRoleBinding'): Printer {
  return {
    columns: [
      NAME_COLUMN,
      col('Role', 'string', kind === 'roleBinding' ? 'rb.roleRef' : 'crb.roleRef'),
      AGE_COLUMN,
      col('Users', 'string', { text: `Users in the ${kind}` }, { priority: 1 }),
      col('Groups', 'string', { text: `Groups in the ${kind}` }, { priority: 1 }),
      col('ServiceAccounts', 'string', { text: `ServiceAccounts in the ${kind}` }, { priority: 1 }),
    ],
    print(o, now) {
      const roleRef = obj(o['roleRef']);
      return { cells: [name(o), `${str(roleRef['kind'])}/${str(roleRef['name'])}`, age(o, now), ...subjectsStrings(o['subjects'])] };
    },
  };
}
export const roleBindingPrinter = bindingPrinter('roleBinding');
export const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding');

export const priorityClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Value', 'integer', 'pc.value'),
    col('Global-Default', 'boolean', 'pc.globalDefault'),
    AGE_COLUMN,
    col('PreemptionPolicy', 'string', 'pc.preemptionPolicy'),
  ],
  print(o, now) {
    return { cells: [name(o), int(o['value']), o['globalDefault'] === true, age(o, now), str(o['preemptionPolicy'])] };
  },
};

/** storageutil.IsDefaultAnnotation: the GA or beta default-class annotation set to "true". */
function isDefaultStorageClass(o: KObject): boolean {
  const a = o.metadata.annotations ?? {};
  return a['storageclass.kubernetes.io/is-default-class'] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
}

export const storageClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Provisioner', 'string', 'sc.provisioner'),
    col('ReclaimPolicy', 'string', 'sc.reclaimPolicy'),
    col('VolumeBindingMode', 'string', 'sc.volumeBindingMode'),
    col('AllowVolumeExpansion', 'string', 'sc.allowVolumeExpansion'),
    AGE_COLUMN,
  ],
  print(o, now) {
    return {
      cells: [
        isDefaultStorageClass(o) ? `${name(o)} (default)` : name(o),
        str(o['provisioner']),
        optStr(o['reclaimPolicy']) ?? 'Delete',
        optStr(o['volumeBindingMode']) ?? 'Immediate',
        o['allowVolumeExpansion'] === true,
        age(o, now),
      ],
    };
  },
};

const WEBHOOKS_TEXT = 'Webhooks indicates the number of webhooks registered in this configuration';

export const webhookConfigurationPrinter: Printer = {
  columns: [NAME_COLUMN, col('Webhooks', 'integer', { text: WEBHOOKS_TEXT }), AGE_COLUMN],
  print(o, now) {
    return { cells: [name(o), arr(o['webhooks']).length, age(o, now)] };
  },
};

export const validatingAdmissionPolicyPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Validations', 'integer', { text: 'Validations indicates the number of validation rules defined in this configuration' }),
    col('ParamKind', 'string', { text: 'ParamKind specifies the kind of resources used to parameterize this policy' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const sp = spec(o);
    const paramKind = isObj(sp['paramKind']) ? `${str(sp['paramKind']['apiVersion'])}/${str(sp['paramKind']['kind'])}` : '<unset>';
    return { cells: [name(o), arr(sp['validations']).length, paramKind, age(o, now)] };
  },
};

/**
 * (*metav1.LabelSelector).String(), the generated protobuf form:
 * `&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}`.
 */
function labelSelectorGoString(sel: Obj): string {
  const ml = strMap(sel['matchLabels']);
  const labels = Object.keys(ml)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}: ${ml[k]},`)
    .join('');
  const exprs = arr(sel['matchExpressions'])
    .map(obj)
    .map((e) => `LabelSelectorRequirement{Key:${str(e['key'])},Operator:${str(e['operator'])},Values:[${arr(e['values']).map(str).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

export const validatingAdmissionPolicyBindingPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('PolicyName', 'string', { text: 'PolicyName indicates the policy definition which the policy binding binded to' }),
    col('ParamRef', 'string', { text: 'ParamRef indicates the param resource which sets the configration param' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const sp = spec(o);
    let paramName = '<unset>';
    if (isObj(sp['paramRef'])) {
      const pr = sp['paramRef'];
      if (str(pr['name']).length > 0) {
        // Whether the param is cluster-scoped is unknown here, so a name without namespace gets "*".
        paramName = str(pr['namespace']) !== '' ? `${str(pr['namespace'])}/${str(pr['name'])}` : `*/${str(pr['name'])}`;
      } else if (isObj(pr['selector'])) {
        paramName = labelSelectorGoString(pr['selector']);
      }
    }
    return { cells: [name(o), str(sp['policyName']), paramName, age(o, now)] };
  },
};

/** printers.go csiNodeColumnDefinitions */
export const csiNodePrinter: Printer = {
  columns: [NAME_COLUMN, col('Drivers', 'integer', { text: 'Drivers indicates the number of CSI drivers registered on the node' }), AGE_COLUMN],
  print(o, now) {
    const drivers = ((o['spec'] as { drivers?: unknown[] } | undefined)?.drivers ?? []).length;
    return { cells: [name(o), drivers, age(o, now)] };
  },
};

/** printers.go csiDriverColumnDefinitions */
export const csiDriverPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('AttachRequired', 'boolean', { text: 'attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the Kubernetes attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting.' }),
    col('PodInfoOnMount', 'boolean', { text: 'podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true.' }),
    col('StorageCapacity', 'boolean', { text: 'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.' }),
    col('TokenRequests', 'string', { text: 'tokenRequests indicates the CSI driver needs pods\' service account tokens it is mounting volume for to do necessary authentication.' }),
    col('RequiresRepublish', 'boolean', { text: 'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume.' }),
    col('Modes', 'string', { text: 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const spec = (o['spec'] ?? {}) as { attachRequired?: boolean; podInfoOnMount?: boolean; storageCapacity?: boolean; tokenRequests?: { audience?: string }[]; requiresRepublish?: boolean; volumeLifecycleModes?: string[] };
    const tokens = (spec.tokenRequests ?? []).map((t) => t.audience || '<api-server-audience>').join(',');
    const modes = (spec.volumeLifecycleModes ?? []).join(',');
    return {
      cells: [name(o), spec.attachRequired ?? true, spec.podInfoOnMount ?? false, spec.storageCapacity ?? false, tokens || '<unset>', spec.requiresRepublish ?? false, modes || '<none>', age(o, now)],
    };
  },
};

/** printers.go csiStorageCapacityColumnDefinitions */
export const csiStorageCapacityPrinter: Printer = {
  columns: [NAME_COLUMN, col('StorageClassName', 'string', { text: 'storageClassName represents the name of the StorageClass that the reported capacity applies to.' }), col('Capacity', 'string', { text: 'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.' })],
  print(o) {
    return { cells: [name(o), str(o['storageClassName']), optStr(o['capacity']) ?? '<unset>'] };
  },
};

/** The APIService registry's own table (kube-aggregator pkg/registry/apiservice/etcd ConvertToTable). */
export const apiServicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Service', 'string', { text: 'The reference to the service that hosts this API endpoint.' }),
    col('Available', 'string', { text: 'Whether this service is available.' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const svc = obj(spec(o)['service']);
    const service = isObj(spec(o)['service']) ? `${str(svc['namespace'])}/${str(svc['name'])}` : 'Local';
    const c = arr(status(o)['conditions']).map(obj).find((x) => str(x['type']) === 'Available');
    let available = 'Unknown';
    if (c) available = str(c['status']) === 'True' || !str(c['reason']) ? str(c['status']) : `${str(c['status'])} (${str(c['reason'])})`;
    return { cells: [name(o), service, available, age(o, now)] };
  },
};

/** printComponentStatus: the Healthy condition's status as Healthy/Unhealthy (Unknown without one), its message and error. */
export const componentStatusPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', { text: 'Status of the component conditions' }),
    col('Message', 'string', { text: 'Message of the component conditions' }),
    col('Error', 'string', { text: 'Error of the component conditions' }),
  ],
  print(o) {
    const c = arr(o['conditions'])
      .map(obj)
      .find((x) => str(x['type']) === 'Healthy');
    const state = c ? (str(c['status']) === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown';
    return { cells: [name(o), state, c ? str(c['message']) : '', c ? str(c['error']) : ''] };
  },
};
