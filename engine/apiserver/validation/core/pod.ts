// Pod and PodSpec validation (pkg/apis/core/validation/validation.go, v1.32:
// ValidatePodCreate, ValidatePodSpec, validateContainers, ValidateVolumes,
// ValidateTolerations, validateAffinity, validateTopologySpreadConstraints,
// ValidatePodUpdate, ValidatePodStatusUpdate, ValidatePodTemplateSpec).
import { inclusiveRangeError, isConfigMapKey, isDNS1123Label, isDNS1123Subdomain, isHTTPHeaderName, isIP, isRelaxedEnvVarName, isValidLabelValue, isValidPortName, isValidPortNum, IP_ERROR, isQualifiedName as isQualified } from '../../../apimachinery/validation/names';
import { nameIsDNSSubdomain } from '../names';
import { validateAnnotations, validateLabelName, validateLabels, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from '../objectMeta';
import { a, deepEqual, fieldErr, FieldPath, has, IS_NOT_POSITIVE, isObj, msgs, n, nonNegative, o, root, s, clone, type Errs, type Loose } from '../util';
import { q, validateResourceRequirements } from './resources';

const MAX_INT32 = 2147483647;
const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

// ---------------------------------------------------------------- volumes

const VOLUME_TYPES = [
  'hostPath',
  'emptyDir',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'projected',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];

function validateFileMode(mode: unknown, p: FieldPath): Errs {
  if (typeof mode === 'number' && (mode > 0o777 || mode < 0)) return [fieldErr.invalid(p, mode, FILE_MODE_ERROR)];
  return [];
}

/** validateLocalDescendingPath: relative, no '..' elements. */
function validateLocalDescendingPath(target: string, p: FieldPath): Errs {
  const errs: Errs = [];
  if (target.startsWith('/')) errs.push(fieldErr.invalid(p, target, 'must be a relative path'));
  if (target.split(/[\\/]/).includes('..')) errs.push(fieldErr.invalid(p, target, "must not contain '..'"));
  return errs;
}

function validateKeyToPath(items: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  a(items).forEach((it, i) => {
    const ip = p.index(i);
    if (!s(it.key)) errs.push(fieldErr.required(ip.child('key'), ''));
    if (!s(it.path)) errs.push(fieldErr.required(ip.child('path'), ''));
    errs.push(...validateLocalNonReservedPath(s(it.path), ip.child('path')));
    errs.push(...validateFileMode(it.mode, ip.child('mode')));
  });
  return errs;
}

function validateLocalNonReservedPath(target: string, p: FieldPath): Errs {
  const errs = validateLocalDescendingPath(target, p);
  if (target.startsWith('..')) errs.push(fieldErr.invalid(p, target, "must not start with '..'"));
  return errs;
}

function validateVolumeSource(v: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  let count = 0;
  for (const t of VOLUME_TYPES) {
    if (!has(v[t])) continue;
    if (count > 0) {
      errs.push(fieldErr.forbidden(p.child(t), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    const src = o(v[t]);
    const sp = p.child(t);
    switch (t) {
      case 'hostPath':
        if (!s(src.path)) errs.push(fieldErr.required(sp.child('path'), ''));
        else errs.push(...validatePathNoBacksteps(s(src.path), sp.child('path')));
        if (has(src.type) && !HOST_PATH_TYPES.includes(s(src.type))) errs.push(fieldErr.notSupported(sp.child('type'), src.type, HOST_PATH_TYPES));
        break;
      case 'emptyDir': {
        const lim = q(src.sizeLimit);
        if (lim && lim.nanos < 0n) errs.push(fieldErr.forbidden(sp.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
        if (has(src.medium) && !['', 'Memory', 'HugePages'].includes(s(src.medium)) && !s(src.medium).startsWith('HugePages-')) {
          errs.push(fieldErr.notSupported(sp.child('medium'), src.medium, ['', 'Memory', 'HugePages']));
        }
        break;
      }
      case 'secret':
        if (!s(src.secretName)) errs.push(fieldErr.required(sp.child('secretName'), ''));
        errs.push(...validateFileMode(src.defaultMode, sp.child('defaultMode')));
        errs.push(...validateKeyToPath(src.items, sp.child('items')));
        break;
      case 'configMap':
        if (!s(src.name)) errs.push(fieldErr.required(sp.child('name'), ''));
        errs.push(...validateFileMode(src.defaultMode, sp.child('defaultMode')));
        errs.push(...validateKeyToPath(src.items, sp.child('items')));
        break;
      case 'persistentVolumeClaim':
        if (!s(src.claimName)) errs.push(fieldErr.required(sp.child('claimName'), ''));
        break;
      case 'nfs':
        if (!s(src.server)) errs.push(fieldErr.required(sp.child('server'), ''));
        if (!s(src.path)) errs.push(fieldErr.required(sp.child('path'), ''));
        else if (!s(src.path).startsWith('/')) errs.push(fieldErr.invalid(sp.child('path'), s(src.path), 'must be an absolute path'));
        break;
      case 'downwardAPI':
        errs.push(...validateFileMode(src.defaultMode, sp.child('defaultMode')));
        a(src.items).forEach((it, i) => {
          if (!s(it.path)) errs.push(fieldErr.required(sp.child('items').index(i).child('path'), ''));
        });
        break;
      case 'projected':
        errs.push(...validateFileMode(src.defaultMode, sp.child('defaultMode')));
        a(src.sources).forEach((srcItem, i) => {
          const ip = sp.child('sources').index(i);
          const kinds = ['secret', 'downwardAPI', 'configMap', 'serviceAccountToken', 'clusterTrustBundle'].filter((k) => has(srcItem[k]));
          if (kinds.length === 0) errs.push(fieldErr.required(ip, 'must specify exactly 1 of configMap, downwardAPI, secret, serviceAccountToken, clusterTrustBundle'));
          for (const k of kinds.slice(1)) errs.push(fieldErr.forbidden(ip.child(k), 'may not specify more than 1 volume type per source'));
          if (has(srcItem.serviceAccountToken)) {
            const t = o(srcItem.serviceAccountToken);
            const tp = ip.child('serviceAccountToken');
            if (typeof t.expirationSeconds === 'number') {
              if (t.expirationSeconds < 10 * 60) errs.push(fieldErr.invalid(tp.child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration less than 10 minutes'));
              else if (t.expirationSeconds > 2 ** 32) errs.push(fieldErr.invalid(tp.child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
            }
            if (!s(t.path)) errs.push(fieldErr.required(tp.child('path'), ''));
          }
        });
        break;
      case 'csi':
        if (!s(src.driver)) errs.push(fieldErr.required(sp.child('driver'), ''));
        break;
      case 'ephemeral':
        if (!has(src.volumeClaimTemplate)) errs.push(fieldErr.required(sp.child('volumeClaimTemplate'), ''));
        break;
      default:
        break;
    }
  }
  if (count === 0) errs.push(fieldErr.required(p, 'must specify a volume type'));
  return errs;
}

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function validatePathNoBacksteps(target: string, p: FieldPath): Errs {
  return target.split(/[\\/]/).includes('..') ? [fieldErr.invalid(p, target, "must not contain '..'")] : [];
}

/** ValidateVolumes: returns the names of valid volumes and the errors. */
export function validateVolumes(volumes: unknown, p: FieldPath): { names: Set<string>; errs: Errs } {
  const errs: Errs = [];
  const names = new Set<string>();
  a(volumes).forEach((vol, i) => {
    const ip = p.index(i);
    const np = ip.child('name');
    const v = o(vol);
    const el = validateVolumeSource(v, ip);
    const name = s(v.name);
    if (!name) el.push(fieldErr.required(np, ''));
    else el.push(...msgs(np, name, isDNS1123Label(name)));
    if (names.has(name)) el.push(fieldErr.duplicate(np, name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { names, errs };
}

// ---------------------------------------------------------------- containers

function validatePortNumOrName(port: unknown, p: FieldPath): Errs {
  if (typeof port === 'number') return msgs(p, port, isValidPortNum(port));
  if (typeof port === 'string') return msgs(p, port, isValidPortName(port));
  return [fieldErr.internal(p, `unknown type: ${JSON.stringify(port ?? null)}`)];
}
export { validatePortNumOrName };

function validateContainerPorts(ports: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const names = new Set<string>();
  a(ports).forEach((port, i) => {
    const ip = p.index(i);
    const pt = o(port);
    const name = s(pt.name);
    if (name) {
      const m = isValidPortName(name);
      if (m.length) errs.push(...msgs(ip.child('name'), name, m));
      else if (names.has(name)) errs.push(fieldErr.duplicate(ip.child('name'), name));
      else names.add(name);
    }
    const cp = n(pt.containerPort);
    if (cp === 0) errs.push(fieldErr.required(ip.child('containerPort'), ''));
    else errs.push(...msgs(ip.child('containerPort'), cp, isValidPortNum(cp)));
    const hp = n(pt.hostPort);
    if (hp !== 0) errs.push(...msgs(ip.child('hostPort'), hp, isValidPortNum(hp)));
    const proto = s(pt.protocol);
    if (!proto) errs.push(fieldErr.required(ip.child('protocol'), ''));
    else if (!PORT_PROTOCOLS.includes(proto)) errs.push(fieldErr.notSupported(ip.child('protocol'), proto, PORT_PROTOCOLS));
  });
  return errs;
}

const VALID_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

function validateEnv(env: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  a(env).forEach((ev, i) => {
    const ip = p.index(i);
    const e = o(ev);
    const name = s(e.name);
    if (!name) errs.push(fieldErr.required(ip.child('name'), ''));
    errs.push(...msgs(ip.child('name'), name, isRelaxedEnvVarName(name)));
    errs.push(...validateEnvVarValueFrom(e, ip.child('valueFrom')));
  });
  return errs;
}

function validateEnvVarValueFrom(e: Loose, p: FieldPath): Errs {
  if (!has(e.valueFrom)) return [];
  const errs: Errs = [];
  const vf = o(e.valueFrom);
  let count = 0;
  if (has(vf.fieldRef)) {
    count++;
    const fr = o(vf.fieldRef);
    const fp = s(fr.fieldPath);
    if (!fp) errs.push(fieldErr.required(p.child('fieldRef', 'fieldPath'), ''));
    else if (!s(fr.apiVersion)) errs.push(fieldErr.required(p.child('fieldRef', 'apiVersion'), ''));
    else {
      const base = fp.replace(/\[.*\]$/, '');
      if (!VALID_FIELD_PATHS.includes(base)) errs.push(fieldErr.notSupported(p.child('fieldRef', 'fieldPath'), fp, VALID_FIELD_PATHS));
    }
  }
  if (has(vf.resourceFieldRef)) {
    count++;
    const rf = o(vf.resourceFieldRef);
    if (!s(rf.resource)) errs.push(fieldErr.required(p.child('resourceFieldRef', 'resource'), ''));
  }
  if (has(vf.configMapKeyRef)) {
    count++;
    const r = o(vf.configMapKeyRef);
    const rp = p.child('configMapKeyRef');
    if (!s(r.name)) errs.push(fieldErr.required(rp.child('name'), ''));
    if (!s(r.key)) errs.push(fieldErr.required(rp.child('key'), ''));
    else errs.push(...msgs(rp.child('key'), s(r.key), isConfigMapKey(s(r.key))));
  }
  if (has(vf.secretKeyRef)) {
    count++;
    const r = o(vf.secretKeyRef);
    const rp = p.child('secretKeyRef');
    if (!s(r.name)) errs.push(fieldErr.required(rp.child('name'), ''));
    if (!s(r.key)) errs.push(fieldErr.required(rp.child('key'), ''));
    else errs.push(...msgs(rp.child('key'), s(r.key), isConfigMapKey(s(r.key))));
  }
  if (count === 0) errs.push(fieldErr.invalid(p, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (s(e.value) !== '') errs.push(fieldErr.invalid(p, '', 'may not be specified when `value` is not empty'));
  else if (count > 1) errs.push(fieldErr.invalid(p, '', 'may not have more than one field specified at a time'));
  return errs;
}

function validateEnvFrom(envFrom: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  a(envFrom).forEach((ev, i) => {
    const ip = p.index(i);
    const e = o(ev);
    if (s(e.prefix)) errs.push(...msgs(ip.child('prefix'), s(e.prefix), isRelaxedEnvVarName(s(e.prefix))));
    let count = 0;
    for (const k of ['configMapRef', 'secretRef']) {
      if (!has(e[k])) continue;
      count++;
      const name = s(o(e[k]).name);
      if (!name) errs.push(fieldErr.required(ip.child(k, 'name'), ''));
      else errs.push(...msgs(ip.child(k, 'name'), name, nameIsDNSSubdomain(name, false)));
    }
    if (count === 0) errs.push(fieldErr.invalid(ip, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(fieldErr.invalid(ip, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateVolumeMounts(mounts: unknown, devices: Map<string, string>, volumes: Set<string>, p: FieldPath): Errs {
  const errs: Errs = [];
  const mountpoints = new Set<string>();
  a(mounts).forEach((mnt, i) => {
    const ip = p.index(i);
    const m = o(mnt);
    const name = s(m.name);
    const mountPath = s(m.mountPath);
    if (!name) errs.push(fieldErr.required(ip.child('name'), ''));
    if (!volumes.has(name)) errs.push(fieldErr.notFound(ip.child('name'), name));
    if (!mountPath) errs.push(fieldErr.required(ip.child('mountPath'), ''));
    if (mountpoints.has(mountPath)) errs.push(fieldErr.invalid(ip.child('mountPath'), mountPath, 'must be unique'));
    mountpoints.add(mountPath);
    if (devices.has(name)) errs.push(fieldErr.invalid(ip.child('name'), name, 'must not already exist in volumeDevices'));
    if ([...devices.values()].includes(mountPath)) errs.push(fieldErr.invalid(ip.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    // Upstream reports subPath problems at the list's path (not the item's).
    if (s(m.subPath)) errs.push(...validateLocalDescendingPath(s(m.subPath), p.child('subPath')));
    if (s(m.subPathExpr)) {
      if (s(m.subPath)) errs.push(fieldErr.invalid(ip.child('subPathExpr'), s(m.subPathExpr), 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(s(m.subPathExpr), p.child('subPathExpr')));
    }
    if (has(m.mountPropagation) && !['None', 'HostToContainer', 'Bidirectional'].includes(s(m.mountPropagation))) {
      errs.push(fieldErr.notSupported(p.child('mountPropagation'), m.mountPropagation, ['Bidirectional', 'HostToContainer', 'None']));
    }
  });
  return errs;
}

function validateVolumeDevices(devices: unknown, mounts: Map<string, string>, volumes: Set<string>, p: FieldPath): Errs {
  const errs: Errs = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  a(devices).forEach((dev, i) => {
    const ip = p.index(i);
    const d = o(dev);
    const name = s(d.name);
    const devicePath = s(d.devicePath);
    if (!name) errs.push(fieldErr.required(ip.child('name'), ''));
    if (names.has(name)) errs.push(fieldErr.invalid(ip.child('name'), name, 'must be unique'));
    if (!volumes.has(name)) errs.push(fieldErr.notFound(ip.child('name'), name));
    if (!devicePath) errs.push(fieldErr.required(ip.child('devicePath'), ''));
    if (paths.has(devicePath)) errs.push(fieldErr.invalid(ip.child('devicePath'), devicePath, 'must be unique'));
    if (mounts.has(name)) errs.push(fieldErr.invalid(ip.child('name'), name, 'must not already exist in volumeMounts'));
    names.add(name);
    paths.add(devicePath);
  });
  return errs;
}

function validatePullPolicy(policy: unknown, p: FieldPath): Errs {
  const v = s(policy);
  if (v === 'Always' || v === 'IfNotPresent' || v === 'Never') return [];
  if (v === '') return [fieldErr.required(p, '')];
  return [fieldErr.notSupported(p, v, ['Always', 'IfNotPresent', 'Never'])];
}

const HANDLER_KINDS = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const;

function validateHandler(h: Loose, p: FieldPath, allowSleep: boolean, allowGrpc: boolean): Errs {
  const errs: Errs = [];
  let count = 0;
  for (const k of HANDLER_KINDS) {
    if (!has(h[k])) continue;
    if ((k === 'sleep' && !allowSleep) || (k === 'grpc' && !allowGrpc)) continue;
    if (count > 0) {
      errs.push(fieldErr.forbidden(p.child(k), 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    const v = o(h[k]);
    const hp = p.child(k);
    switch (k) {
      case 'exec':
        if (a(v.command).length === 0) errs.push(fieldErr.required(hp.child('command'), ''));
        break;
      case 'httpGet': {
        if (!s(v.path)) errs.push(fieldErr.required(hp.child('path'), ''));
        errs.push(...validatePortNumOrName(v.port, hp.child('port')));
        const scheme = s(v.scheme);
        if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(fieldErr.notSupported(hp.child('scheme'), scheme, ['HTTP', 'HTTPS']));
        for (const hd of a(v.httpHeaders)) errs.push(...msgs(hp.child('httpHeaders'), s(hd.name), isHTTPHeaderName(s(hd.name))));
        break;
      }
      case 'tcpSocket':
        errs.push(...validatePortNumOrName(v.port, hp.child('port')));
        break;
      case 'grpc':
        errs.push(...msgs(hp.child('port'), n(v.port), isValidPortNum(n(v.port))));
        break;
      case 'sleep':
        if (n(v.seconds) < 0) errs.push(fieldErr.invalid(hp, n(v.seconds), 'must be non-negative'));
        break;
    }
  }
  if (count === 0) errs.push(fieldErr.required(p, 'must specify a handler type'));
  return errs;
}

function validateProbe(probe: unknown, p: FieldPath): Errs {
  if (!isObj(probe)) return [];
  const pr = probe as Loose;
  const errs = validateHandler(pr, p, false, true);
  errs.push(...nonNegative(pr.initialDelaySeconds, p.child('initialDelaySeconds')));
  errs.push(...nonNegative(pr.timeoutSeconds, p.child('timeoutSeconds')));
  errs.push(...nonNegative(pr.periodSeconds, p.child('periodSeconds')));
  errs.push(...nonNegative(pr.successThreshold, p.child('successThreshold')));
  errs.push(...nonNegative(pr.failureThreshold, p.child('failureThreshold')));
  if (typeof pr.terminationGracePeriodSeconds === 'number' && pr.terminationGracePeriodSeconds <= 0) {
    errs.push(fieldErr.invalid(p.child('terminationGracePeriodSeconds'), pr.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  return errs;
}

function validateLivenessOrStartup(probe: unknown, p: FieldPath): Errs {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, p);
  const st = (probe as Loose).successThreshold;
  if (st !== 1) errs.push(fieldErr.invalid(p.child('successThreshold'), st ?? 0, 'must be 1'));
  return errs;
}

function validateReadinessProbe(probe: unknown, p: FieldPath): Errs {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, p);
  if (has((probe as Loose).terminationGracePeriodSeconds)) {
    errs.push(fieldErr.invalid(p.child('terminationGracePeriodSeconds'), (probe as Loose).terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

function validateLifecycle(lc: unknown, p: FieldPath): Errs {
  const l = o(lc);
  const errs: Errs = [];
  if (has(l.postStart)) errs.push(...validateHandler(o(l.postStart), p.child('postStart'), true, false));
  if (has(l.preStop)) errs.push(...validateHandler(o(l.preStop), p.child('preStop'), true, false));
  return errs;
}

function validateSecurityContext(sc: unknown, p: FieldPath): Errs {
  if (!isObj(sc)) return [];
  const c = sc as Loose;
  const errs: Errs = [];
  if (typeof c.runAsUser === 'number') errs.push(...msgs(p.child('runAsUser'), c.runAsUser, idRange(c.runAsUser)));
  if (typeof c.runAsGroup === 'number') errs.push(...msgs(p.child('runAsGroup'), c.runAsGroup, idRange(c.runAsGroup)));
  if (c.privileged === true && c.allowPrivilegeEscalation === false) {
    errs.push(fieldErr.invalid(p, JSON.stringify(c), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
  }
  return errs;
}

function idRange(v: number): string[] {
  return v >= 0 && v <= MAX_INT32 ? [] : [inclusiveRangeError(0, MAX_INT32)];
}

function mapOf(list: unknown, keyField: string, valField: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const it of a(list)) m.set(s(it[keyField]), s(it[valField]));
  return m;
}

function validateContainerCommon(ctr: Loose, volumes: Set<string>, p: FieldPath): Errs {
  const errs: Errs = [];
  const name = s(ctr.name);
  const np = p.child('name');
  if (!name) errs.push(fieldErr.required(np, ''));
  else errs.push(...msgs(np, name, isDNS1123Label(name)));
  if (!s(ctr.image)) errs.push(fieldErr.required(p.child('image'), ''));
  const tmp = s(ctr.terminationMessagePolicy);
  if (tmp === '') errs.push(fieldErr.required(p.child('terminationMessagePolicy'), ''));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(fieldErr.notSupported(p.child('terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  const mounts = mapOf(ctr.volumeMounts, 'name', 'mountPath');
  const devices = mapOf(ctr.volumeDevices, 'name', 'devicePath');
  errs.push(...validateContainerPorts(ctr.ports, p.child('ports')));
  errs.push(...validateEnv(ctr.env, p.child('env')));
  errs.push(...validateEnvFrom(ctr.envFrom, p.child('envFrom')));
  errs.push(...validateVolumeMounts(ctr.volumeMounts, devices, volumes, p.child('volumeMounts')));
  errs.push(...validateVolumeDevices(ctr.volumeDevices, mounts, volumes, p.child('volumeDevices')));
  errs.push(...validatePullPolicy(ctr.imagePullPolicy, p.child('imagePullPolicy')));
  errs.push(...validateResourceRequirements(ctr.resources, p.child('resources')));
  errs.push(...validateResizePolicy(ctr.resizePolicy, p.child('resizePolicy')));
  errs.push(...validateSecurityContext(ctr.securityContext, p.child('securityContext')));
  return errs;
}

function validateResizePolicy(list: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const seen = new Set<string>();
  a(list).forEach((rp, i) => {
    const ip = p.index(i);
    const r = o(rp);
    const name = s(r.resourceName);
    if (name !== 'cpu' && name !== 'memory') {
      if (name === '') errs.push(fieldErr.required(ip, ''));
      else errs.push(fieldErr.notSupported(ip, name, ['cpu', 'memory']));
    }
    if (seen.has(name)) errs.push(fieldErr.duplicate(ip, name));
    seen.add(name);
    const policy = s(r.restartPolicy);
    if (policy !== 'NotRequired' && policy !== 'RestartContainer') {
      if (policy === '') errs.push(fieldErr.required(ip, ''));
      else errs.push(fieldErr.notSupported(ip, policy, ['NotRequired', 'RestartContainer']));
    }
  });
  return errs;
}

function checkHostPortConflicts(containers: Loose[], p: FieldPath, seen = new Set<string>()): Errs {
  const errs: Errs = [];
  containers.forEach((ctr, ci) => {
    a(ctr.ports).forEach((port, pi) => {
      const hp = n(port.hostPort);
      if (hp === 0) return;
      const key = `${s(port.hostIP)}/${s(port.protocol)}/${hp}`;
      if (seen.has(key)) errs.push(fieldErr.duplicate(p.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

function validateContainers(containers: unknown, volumes: Set<string>, p: FieldPath): Errs {
  const list = a(containers);
  if (list.length === 0) return [fieldErr.required(p, '')];
  const errs: Errs = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const ip = p.index(i);
    const ctr = o(c);
    errs.push(...validateContainerCommon(ctr, volumes, ip));
    const name = s(ctr.name);
    if (names.has(name)) errs.push(fieldErr.duplicate(ip.child('name'), name));
    else names.add(name);
    if (has(ctr.lifecycle)) errs.push(...validateLifecycle(ctr.lifecycle, ip.child('lifecycle')));
    errs.push(...validateLivenessOrStartup(ctr.livenessProbe, ip.child('livenessProbe')));
    errs.push(...validateReadinessProbe(ctr.readinessProbe, ip.child('readinessProbe')));
    errs.push(...validateLivenessOrStartup(ctr.startupProbe, ip.child('startupProbe')));
    if (has(ctr.restartPolicy)) errs.push(fieldErr.forbidden(ip.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(list.map(o), p));
  return errs;
}

function validateInitContainers(containers: unknown, regular: unknown, volumes: Set<string>, p: FieldPath): Errs {
  const errs: Errs = [];
  const names = new Set<string>(a(regular).map((c) => s(o(c).name)));
  a(containers).forEach((c, i) => {
    const ip = p.index(i);
    const ctr = o(c);
    errs.push(...validateContainerCommon(ctr, volumes, ip));
    let restartAlways = false;
    if (has(ctr.restartPolicy)) {
      if (ctr.restartPolicy !== 'Always') errs.push(fieldErr.notSupported(ip.child('restartPolicy'), ctr.restartPolicy, ['Always']));
      restartAlways = ctr.restartPolicy === 'Always';
    }
    const name = s(ctr.name);
    if (names.has(name)) errs.push(fieldErr.duplicate(ip.child('name'), name));
    else if (name) names.add(name);
    errs.push(...checkHostPortConflicts([ctr], p));
    if (restartAlways) {
      if (has(ctr.lifecycle)) errs.push(...validateLifecycle(ctr.lifecycle, ip.child('lifecycle')));
      errs.push(...validateLivenessOrStartup(ctr.livenessProbe, ip.child('livenessProbe')));
      errs.push(...validateReadinessProbe(ctr.readinessProbe, ip.child('readinessProbe')));
      errs.push(...validateLivenessOrStartup(ctr.startupProbe, ip.child('startupProbe')));
    } else {
      if (has(ctr.lifecycle)) errs.push(fieldErr.forbidden(ip.child('lifecycle'), 'may not be set for init containers without restartPolicy=Always'));
      if (has(ctr.livenessProbe)) errs.push(fieldErr.forbidden(ip.child('livenessProbe'), 'may not be set for init containers without restartPolicy=Always'));
      if (has(ctr.readinessProbe)) errs.push(fieldErr.forbidden(ip.child('readinessProbe'), 'may not be set for init containers'));
      if (has(ctr.startupProbe)) errs.push(fieldErr.forbidden(ip.child('startupProbe'), 'may not be set for init containers without restartPolicy=Always'));
    }
    if (a(ctr.resizePolicy).length > 0) errs.push(fieldErr.invalid(ip.child('resizePolicy'), ctr.resizePolicy, 'must not be set for init containers'));
  });
  return errs;
}

// ---------------------------------------------------------------- scheduling

export function validateTolerations(tolerations: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  a(tolerations).forEach((tol, i) => {
    const ip = p.index(i);
    const t = o(tol);
    const key = s(t.key);
    const op = s(t.operator);
    const value = s(t.value);
    const effect = s(t.effect);
    if (key) errs.push(...validateLabelName(key, ip.child('key')));
    if (!key && op !== 'Exists') {
      errs.push(fieldErr.invalid(ip.child('operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (has(t.tolerationSeconds) && effect !== 'NoExecute') {
      errs.push(fieldErr.invalid(ip.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (op) {
      case 'Equal':
      case '': {
        const m = isValidLabelValue(value);
        if (m.length) errs.push(fieldErr.invalid(ip.child('operator'), value, m.join(';')));
        break;
      }
      case 'Exists':
        if (value) errs.push(fieldErr.invalid(ip.child('operator'), t, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldErr.notSupported(ip.child('operator'), op, ['Equal', 'Exists']));
    }
    if (effect) errs.push(...validateTaintEffect(effect, true, ip.child('effect')));
  });
  return errs;
}

export function validateTaintEffect(effect: string, allowEmpty: boolean, p: FieldPath): Errs {
  if (!allowEmpty && effect === '') return [fieldErr.required(p, '')];
  if (['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) return [];
  return [fieldErr.notSupported(p, effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])];
}

function validateNodeSelectorRequirement(req: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const values = a(req.values);
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErr.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErr.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldErr.required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldErr.invalid(p.child('operator'), s(req.operator), 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(s(req.key), p.child('key')));
  return errs;
}

function validateNodeFieldSelectorRequirement(req: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const values = a(req.values);
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length !== 1) errs.push(fieldErr.required(p.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(fieldErr.invalid(p.child('operator'), s(req.operator), 'not a valid selector operator'));
  if (s(req.key) !== 'metadata.name') errs.push(fieldErr.invalid(p.child('key'), s(req.key), 'not a valid field selector key'));
  return errs;
}

function validateNodeSelectorTerm(term: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  a(term.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(o(r), p.child('matchExpressions').index(j))));
  a(term.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(o(r), p.child('matchFields').index(j))));
  return errs;
}

function validateAffinity(aff: unknown, p: FieldPath): Errs {
  if (!isObj(aff)) return [];
  const af = aff as Loose;
  const errs: Errs = [];
  if (isObj(af.nodeAffinity)) {
    const na = af.nodeAffinity as Loose;
    const np = p.child('nodeAffinity');
    if (isObj(na.requiredDuringSchedulingIgnoredDuringExecution)) {
      const rp = np.child('requiredDuringSchedulingIgnoredDuringExecution');
      const terms = a((na.requiredDuringSchedulingIgnoredDuringExecution as Loose).nodeSelectorTerms);
      if (terms.length === 0) errs.push(fieldErr.required(rp.child('nodeSelectorTerms'), 'must have at least one node selector term'));
      terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(o(t), rp.child('nodeSelectorTerms').index(i))));
    }
    a(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const ip = np.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const w = n(t.weight);
      if (w <= 0 || w > 100) errs.push(fieldErr.invalid(ip.child('weight'), w, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(o(t.preference), ip.child('preference')));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    if (!isObj(af[kind])) continue;
    const pa = af[kind] as Loose;
    const kp = p.child(kind);
    a(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
      errs.push(...validatePodAffinityTerm(o(t), kp.child('requiredDuringSchedulingIgnoredDuringExecution').index(i))),
    );
    a(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const ip = kp.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const w = n(t.weight);
      if (w <= 0 || w > 100) errs.push(fieldErr.invalid(ip.child('weight'), w, 'must be in the range 1-100'));
      errs.push(...validatePodAffinityTerm(o(t.podAffinityTerm), ip.child('podAffinityTerm')));
    });
  }
  return errs;
}

function validatePodAffinityTerm(term: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  errs.push(...validateLabelSelector(term.labelSelector, {}, p.child('labelSelector')));
  errs.push(...validateLabelSelector(term.namespaceSelector, {}, p.child('namespaceSelector')));
  for (const ns of a(term.namespaces)) errs.push(...msgs(p.child('namespace'), s(ns), isDNS1123Label(s(ns))));
  const tk = s(term.topologyKey);
  if (!tk) errs.push(fieldErr.required(p.child('topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(tk, p.child('topologyKey')));
  return errs;
}

function validateTopologySpreadConstraints(list: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const cs = a(list).map(o);
  cs.forEach((c, i) => {
    const ip = p.index(i);
    if (n(c.maxSkew) <= 0) errs.push(fieldErr.invalid(ip.child('maxSkew'), n(c.maxSkew), IS_NOT_POSITIVE));
    if (!s(c.topologyKey)) errs.push(fieldErr.required(ip.child('topologyKey'), 'can not be empty'));
    const wu = s(c.whenUnsatisfiable);
    if (wu !== 'DoNotSchedule' && wu !== 'ScheduleAnyway') errs.push(fieldErr.notSupported(ip.child('whenUnsatisfiable'), wu, ['DoNotSchedule', 'ScheduleAnyway']));
    if (cs.slice(i + 1).some((d) => s(d.topologyKey) === s(c.topologyKey) && s(d.whenUnsatisfiable) === wu)) {
      errs.push(fieldErr.duplicate(ip.child('{topologyKey, whenUnsatisfiable}'), `{${s(c.topologyKey)}, ${wu}}`));
    }
    if (has(c.minDomains)) {
      const md = n(c.minDomains);
      if (md <= 0) errs.push(fieldErr.invalid(ip.child('minDomains'), md, IS_NOT_POSITIVE));
      if (wu !== 'DoNotSchedule') errs.push(fieldErr.invalid(ip.child('minDomains'), md, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${wu}`));
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (has(c[k]) && c[k] !== 'Honor' && c[k] !== 'Ignore') errs.push(fieldErr.notSupported(ip.child(k), c[k], ['Honor', 'Ignore']));
    }
    errs.push(...validateLabelSelector(c.labelSelector, {}, ip.child('labelSelector')));
  });
  return errs;
}

// ---------------------------------------------------------------- pod spec

export interface PodSpecOptions {
  /** Only Pods (not templates) get host-network port checks on defaulted values. */
  isPod?: boolean;
}

export function validatePodSpec(spec: unknown, p: FieldPath, _opts: PodSpecOptions = {}): Errs {
  const sp = o(spec);
  const errs: Errs = [];
  if (!has(sp.terminationGracePeriodSeconds)) errs.push(fieldErr.required(p.child('terminationGracePeriodSeconds'), ''));
  const vols = validateVolumes(sp.volumes, p.child('volumes'));
  errs.push(...vols.errs);
  errs.push(...validateContainers(sp.containers, vols.names, p.child('containers')));
  errs.push(...validateInitContainers(sp.initContainers, sp.containers, vols.names, p.child('initContainers')));
  errs.push(...validateEphemeralContainers(sp.ephemeralContainers, sp.containers, sp.initContainers, vols.names, p.child('ephemeralContainers')));
  if (sp.hostNetwork === true) {
    for (const [field, list] of [
      ['containers', sp.containers],
      ['initContainers', sp.initContainers],
    ] as const) {
      a(list).forEach((c, ci) =>
        a(o(c).ports).forEach((port, pi) => {
          if (n(port.hostPort) !== n(port.containerPort)) {
            errs.push(fieldErr.invalid(p.child(field).index(ci).child('ports').index(pi).child('containerPort'), n(port.containerPort), 'must match `hostPort` when `hostNetwork` is true'));
          }
        }),
      );
    }
  }
  const rp = s(sp.restartPolicy);
  if (rp === '') errs.push(fieldErr.required(p.child('restartPolicy'), ''));
  else if (!['Always', 'OnFailure', 'Never'].includes(rp)) errs.push(fieldErr.notSupported(p.child('restartPolicy'), rp, ['Always', 'OnFailure', 'Never']));
  const dns = s(sp.dnsPolicy);
  if (dns === '') errs.push(fieldErr.required(p.child('dnsPolicy'), ''));
  else if (!['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(dns)) {
    errs.push(fieldErr.notSupported(p.child('dnsPolicy'), dns, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  }
  errs.push(...validateLabels(sp.nodeSelector, p.child('nodeSelector')));
  if (isObj(sp.securityContext)) {
    const sc = sp.securityContext as Loose;
    const scp = p.child('securityContext');
    if (typeof sc.runAsUser === 'number') errs.push(...msgs(scp.child('runAsUser'), sc.runAsUser, idRange(sc.runAsUser)));
    if (typeof sc.runAsGroup === 'number') errs.push(...msgs(scp.child('runAsGroup'), sc.runAsGroup, idRange(sc.runAsGroup)));
    if (typeof sc.fsGroup === 'number') errs.push(...msgs(scp.child('fsGroup'), sc.fsGroup, idRange(sc.fsGroup)));
    a(sc.supplementalGroups).forEach((g, i) => errs.push(...msgs(scp.child('supplementalGroups').index(i), g, idRange(n(g)))));
  }
  errs.push(...validateAffinity(sp.affinity, p.child('affinity')));
  if (dns === 'None' && !isObj(sp.dnsConfig)) errs.push(fieldErr.required(p.child('dnsConfig'), "must provide `dnsConfig` when `dnsPolicy` is None"));
  a(sp.readinessGates).forEach((g, i) => errs.push(...msgs(p.child('readinessGates').index(i).child('conditionType'), s(o(g).conditionType), isQualified(s(o(g).conditionType)))));
  const gates = new Set<string>();
  a(sp.schedulingGates).forEach((g, i) => {
    const name = s(o(g).name);
    const gp = p.child('schedulingGates').index(i).child('name');
    errs.push(...msgs(gp, name, isQualified(name)));
    if (gates.has(name)) errs.push(fieldErr.duplicate(gp, name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(sp.topologySpreadConstraints, p.child('topologySpreadConstraints')));
  if (s(sp.serviceAccountName)) errs.push(...msgs(p.child('serviceAccountName'), s(sp.serviceAccountName), isDNS1123Subdomain(s(sp.serviceAccountName))));
  if (s(sp.nodeName)) errs.push(...msgs(p.child('nodeName'), s(sp.nodeName), isDNS1123Subdomain(s(sp.nodeName))));
  if (has(sp.activeDeadlineSeconds)) {
    const v = n(sp.activeDeadlineSeconds);
    if (v < 1 || v > MAX_INT32) errs.push(fieldErr.invalid(p.child('activeDeadlineSeconds'), v, inclusiveRangeError(1, MAX_INT32)));
  }
  if (s(sp.hostname)) errs.push(...msgs(p.child('hostname'), s(sp.hostname), isDNS1123Label(s(sp.hostname))));
  if (s(sp.subdomain)) errs.push(...msgs(p.child('subdomain'), s(sp.subdomain), isDNS1123Label(s(sp.subdomain))));
  if (a(sp.tolerations).length) errs.push(...validateTolerations(sp.tolerations, p.child('tolerations')));
  a(sp.hostAliases).forEach((ha, i) => {
    const ip = s(o(ha).ip);
    if (!isIP(ip)) errs.push(fieldErr.invalid(p.child('hostAliases').index(i).child('ip'), ip, IP_ERROR));
    a(o(ha).hostnames).forEach((h) => errs.push(...msgs(p.child('hostAliases').index(i).child('hostnames'), s(h), isDNS1123Subdomain(s(h)))));
  });
  if (s(sp.priorityClassName)) errs.push(...msgs(p.child('priorityClassName'), s(sp.priorityClassName), isDNS1123Subdomain(s(sp.priorityClassName))));
  if (has(sp.runtimeClassName)) errs.push(...msgs(p.child('runtimeClassName'), s(sp.runtimeClassName), isDNS1123Subdomain(s(sp.runtimeClassName))));
  if (has(sp.preemptionPolicy) && !['PreemptLowerPriority', 'Never'].includes(s(sp.preemptionPolicy))) {
    errs.push(fieldErr.notSupported(p.child('preemptionPolicy'), sp.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
  }
  if (isObj(sp.os)) {
    const name = s((sp.os as Loose).name);
    if (name === '') errs.push(fieldErr.required(p.child('os', 'name'), ''));
    else if (name !== 'linux' && name !== 'windows') errs.push(fieldErr.notSupported(p.child('os', 'name'), name, ['linux', 'windows']));
  }
  return errs;
}


// ---------------------------------------------------------------- pods and templates

function validateContainersOnlyForPod(containers: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  a(containers).forEach((c, i) => {
    const img = s(o(c).image);
    if (img.length !== img.trim().length) errs.push(fieldErr.invalid(p.index(i).child('image'), img, 'must not have leading or trailing whitespace'));
  });
  return errs;
}

function validatePodSpecificAnnotations(ann: unknown, spec: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const an = o(ann) as Record<string, unknown>;
  const mirror = an['kubernetes.io/config.mirror'];
  if (typeof mirror === 'string' && !s(spec.nodeName)) {
    errs.push(fieldErr.invalid(p.key('kubernetes.io/config.mirror'), mirror, 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = an['controller.kubernetes.io/pod-deletion-cost'];
  if (typeof cost === 'string' && !/^[-+]?[0-9]+$/.test(cost.trim() === cost ? cost : 'x')) {
    errs.push(fieldErr.invalid(p.key('controller.kubernetes.io/pod-deletion-cost'), cost, 'must be a 32bit integer'));
  } else if (typeof cost === 'string' && (Number(cost) > MAX_INT32 || Number(cost) < -MAX_INT32 - 1)) {
    errs.push(fieldErr.invalid(p.key('controller.kubernetes.io/pod-deletion-cost'), cost, 'must be a 32bit integer'));
  }
  return errs;
}

function validatePodMetadataAndSpec(pod: Loose): Errs {
  const meta = FieldPath.root('metadata');
  const spec = FieldPath.root('spec');
  const errs = validateObjectMeta(pod.metadata, true, nameIsDNSSubdomain, meta);
  errs.push(...validatePodSpecificAnnotations(o(pod.metadata).annotations, o(pod.spec), meta.child('annotations')));
  errs.push(...validatePodSpec(pod.spec, spec, { isPod: true }));
  const sp = o(pod.spec);
  if (!s(sp.serviceAccountName)) {
    a(sp.volumes).forEach((v, vi) => {
      a(o(v.projected).sources).forEach((src, si) => {
        if (has(src.serviceAccountToken)) {
          errs.push(fieldErr.forbidden(spec.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken'), 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(sp.containers, spec.child('containers')));
  errs.push(...validateContainersOnlyForPod(sp.initContainers, spec.child('initContainers')));
  // validateEphemeralContainers applies the pod-only container checks too (their image's whitespace).
  errs.push(...validateContainersOnlyForPod(sp.ephemeralContainers, spec.child('ephemeralContainers')));
  return errs;
}

/** The EphemeralContainerCommon fields an ephemeral container may not set (validateFieldAllowList's complement). */
const EPHEMERAL_FORBIDDEN = ['ports', 'resources', 'resizePolicy', 'lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe', 'restartPolicy'] as const;

/** Go's zero value, as validateFieldAllowList sees it: absent, empty, or an object of zero values (resources: {}). */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObj(v) && Object.values(v as Loose).every(isZero);
}

/** validateEphemeralContainers: a container's common checks, names unique in the pod, no ports, probes, lifecycle or resources, a target that exists. */
function validateEphemeralContainers(containers: unknown, regular: unknown, init: unknown, volumes: Set<string>, p: FieldPath): Errs {
  const errs: Errs = [];
  const others = new Set<string>([...a(regular), ...a(init)].map((c) => s(o(c).name)));
  const names = new Set<string>();
  a(containers).forEach((c, i) => {
    const ip = p.index(i);
    const ctr = o(c);
    errs.push(...validateContainerCommon(ctr, volumes, ip));
    const name = s(ctr.name);
    if (others.has(name) || names.has(name)) errs.push(fieldErr.duplicate(ip.child('name'), name));
    names.add(name);
    for (const f of EPHEMERAL_FORBIDDEN) if (!isZero(ctr[f])) errs.push(fieldErr.forbidden(ip.child(f), 'cannot be set for an Ephemeral Container'));
    a(ctr.volumeMounts).forEach((m, mi) => {
      if (s(o(m).subPath)) errs.push(fieldErr.forbidden(ip.child('volumeMounts').index(mi).child('subPath'), 'cannot be set for an Ephemeral Container'));
      if (s(o(m).subPathExpr)) errs.push(fieldErr.forbidden(ip.child('volumeMounts').index(mi).child('subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
    const target = s(ctr.targetContainerName);
    if (target && !others.has(target)) errs.push(fieldErr.notFound(ip.child('targetContainerName'), target));
  });
  return errs;
}

/**
 * ValidatePodEphemeralContainersUpdate: the pod as a whole, then that every
 * ephemeral container already there is still there, unchanged (order aside:
 * a patch need not keep it).
 */
export function validatePodEphemeralContainersUpdate(pod: Loose, old: Loose): Errs {
  const meta = FieldPath.root('metadata');
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, meta);
  errs.push(...validatePodMetadataAndSpec(pod));
  errs.push(...validatePodAnnotationUpdates(pod, old, meta.child('annotations')));
  if (isObj(o(old.metadata).annotations) && has(o(o(old.metadata).annotations)['kubernetes.io/config.mirror'])) return [fieldErr.forbidden(FieldPath.root(''), 'static pods do not support ephemeral containers')];
  const specPath = FieldPath.root('spec').child('ephemeralContainers');
  const byName = new Map(a(o(pod.spec).ephemeralContainers).map((c) => [s(o(c).name), c] as const));
  for (const oc of a(o(old.spec).ephemeralContainers)) {
    const name = s(o(oc).name);
    const nc = byName.get(name);
    if (nc === undefined) errs.push(fieldErr.forbidden(specPath, `existing ephemeral containers "${name}" may not be removed\n`));
    else if (!deepEqual(oc, nc)) errs.push(fieldErr.forbidden(specPath, `existing ephemeral containers "${name}" may not be changed\n`));
  }
  return errs;
}

export function validatePodCreate(pod: Loose): Errs {
  const errs = validatePodMetadataAndSpec(pod);
  const sp = o(pod.spec);
  const spec = FieldPath.root('spec');
  if (a(sp.ephemeralContainers).length > 0) errs.push(fieldErr.forbidden(spec.child('ephemeralContainers'), 'cannot be set on create'));
  if (s(sp.nodeName) && a(sp.schedulingGates).length > 0) errs.push(fieldErr.forbidden(spec.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  return errs;
}

/** The message ValidatePodUpdate gives when a forbidden field changed. */
export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function validateContainerUpdates(newC: unknown, oldC: unknown, p: FieldPath): { errs: Errs; stop: boolean } {
  const nl = a(newC);
  const ol = a(oldC);
  if (nl.length !== ol.length) return { errs: [fieldErr.forbidden(p, 'pod updates may not add or remove containers')], stop: true };
  const errs: Errs = [];
  nl.forEach((c, i) => {
    const img = s(o(c).image);
    if (!img) errs.push(fieldErr.required(p.index(i).child('image'), ''));
    if (img.trim().length !== img.length) errs.push(fieldErr.invalid(p.index(i).child('image'), img, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

function validateOnlyAddedTolerations(newT: unknown, oldT: unknown, p: FieldPath): Errs {
  for (const old of a(oldT)) {
    const found = a(newT).some((nt) => deepEqual({ ...o(old), tolerationSeconds: o(nt).tolerationSeconds }, nt));
    if (!found) return [fieldErr.forbidden(p, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(newT, p);
}

export function validatePodUpdate(pod: Loose, old: Loose): Errs {
  const meta = FieldPath.root('metadata');
  const specPath = FieldPath.root('spec');
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, meta);
  errs.push(...validatePodMetadataAndSpec(pod));
  errs.push(...validatePodAnnotationUpdates(pod, old, meta.child('annotations')));
  const ns = o(pod.spec);
  const os = o(old.spec);
  for (const field of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(ns[field], os[field], specPath.child(field));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  if (has(ns.activeDeadlineSeconds)) {
    const v = n(ns.activeDeadlineSeconds);
    if (v < 0 || v > MAX_INT32) {
      errs.push(fieldErr.invalid(specPath.child('activeDeadlineSeconds'), v, inclusiveRangeError(0, MAX_INT32)));
      return errs;
    }
    if (has(os.activeDeadlineSeconds) && n(os.activeDeadlineSeconds) < v) {
      errs.push(fieldErr.invalid(specPath.child('activeDeadlineSeconds'), v, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (has(os.activeDeadlineSeconds)) {
    errs.push(fieldErr.invalid(specPath.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(ns.tolerations, os.tolerations, specPath.child('tolerations')));
  const oldGates = a(os.schedulingGates).map((g) => s(o(g).name));
  for (const g of a(ns.schedulingGates)) {
    if (!oldGates.includes(s(o(g).name))) {
      errs.push(fieldErr.forbidden(specPath.child('schedulingGates'), 'only deletion is allowed, but found new scheduling gate \'' + s(o(g).name) + "'"));
      break;
    }
  }
  if (deepEqual(ns, os)) return errs;
  const munged = clone(ns);
  for (const field of ['containers', 'initContainers']) {
    a(munged[field]).forEach((c, i) => {
      c.image = o(a(os[field])[i]).image;
    });
  }
  delete munged.activeDeadlineSeconds;
  if (has(os.activeDeadlineSeconds)) munged.activeDeadlineSeconds = os.activeDeadlineSeconds;
  munged.schedulingGates = os.schedulingGates;
  munged.tolerations = os.tolerations;
  if (typeof os.terminationGracePeriodSeconds === 'number' && os.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = os.terminationGracePeriodSeconds;
  }
  if (a(os.schedulingGates).length > 0) {
    // Gated pods may gain nodeSelector entries and node affinity.
    const oldSel = o(os.nodeSelector) as Record<string, unknown>;
    const newSel = o(munged.nodeSelector) as Record<string, unknown>;
    if (Object.keys(oldSel).every((k) => newSel[k] === oldSel[k])) munged.nodeSelector = os.nodeSelector;
    munged.affinity = os.affinity;
  }
  if (!deepEqual(munged, os)) errs.push(fieldErr.forbidden(specPath, `${POD_UPDATE_FORBIDDEN}\n${specDiff(os, munged)}`));
  return errs;
}

/** A short rendering of what changed, standing in for upstream's cmp.Diff of the Go structs. */
function specDiff(oldSpec: Loose, newSpec: Loose): string {
  const lines = ['  core.PodSpec{'];
  const ks = [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])].sort();
  for (const k of ks) {
    if (deepEqual(oldSpec[k], newSpec[k])) continue;
    const name = k.charAt(0).toUpperCase() + k.slice(1);
    if (has(oldSpec[k])) lines.push(`- \t${name}: ${JSON.stringify(oldSpec[k])},`);
    if (has(newSpec[k])) lines.push(`+ \t${name}: ${JSON.stringify(newSpec[k])},`);
  }
  lines.push('  }');
  return lines.join('\n') + '\n';
}

function validatePodAnnotationUpdates(pod: Loose, old: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const na = o(o(pod.metadata).annotations) as Record<string, unknown>;
  const oa = o(o(old.metadata).annotations) as Record<string, unknown>;
  const mirror = 'kubernetes.io/config.mirror';
  if (Object.hasOwn(oa, mirror) && na[mirror] !== oa[mirror]) errs.push(fieldErr.forbidden(p.key(mirror), 'may not remove or update mirror pod annotation'));
  if (!Object.hasOwn(oa, mirror) && Object.hasOwn(na, mirror)) errs.push(fieldErr.forbidden(p.key(mirror), 'may not add mirror pod annotation'));
  return errs;
}

export function validatePodStatusUpdate(pod: Loose, old: Loose): Errs {
  const meta = FieldPath.root('metadata');
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, meta);
  errs.push(...validatePodAnnotationUpdates(pod, old, meta.child('annotations')));
  const st = o(pod.status);
  const statusPath = root('status');
  a(st.conditions).forEach((c, i) => {
    const t = s(o(c).type);
    errs.push(...msgs(meta.child('conditions').index(i).child('Type'), t, isQualified(t)));
  });
  if (s(o(pod.spec).nodeName) !== s(o(old.spec).nodeName)) errs.push(fieldErr.forbidden(statusPath.child('nodeName'), 'may not be changed directly'));
  const nnn = s(st.nominatedNodeName);
  if (nnn && nnn !== s(o(old.status).nominatedNodeName)) errs.push(...msgs(statusPath.child('nominatedNodeName'), nnn, isDNS1123Subdomain(nnn)));
  const ips = a(st.podIPs);
  ips.forEach((ip, i) => {
    const v = s(o(ip).ip);
    if (!isIP(v)) errs.push(fieldErr.invalid(statusPath.child('podIPs').index(i), v, IP_ERROR));
  });
  if (s(st.podIP) && ips.length > 0 && s(o(ips[0]).ip) !== s(st.podIP)) {
    errs.push(fieldErr.invalid(statusPath.child('podIPs').index(0).child('ip'), s(o(ips[0]).ip), 'must be equal to podIP'));
  }
  return errs;
}

/** ValidatePodTemplateSpec: note upstream's paths `<p>.labels` and `<p>.annotations` (no `metadata`). */
export function validatePodTemplateSpec(tpl: unknown, p: FieldPath): Errs {
  const t = o(tpl);
  const m = o(t.metadata);
  const errs = validateLabels(m.labels, p.child('labels'));
  errs.push(...validateAnnotations(m.annotations, p.child('annotations')));
  errs.push(...validatePodSpecificAnnotations(m.annotations, o(t.spec), p.child('annotations')));
  errs.push(...validatePodSpec(t.spec, p.child('spec')));
  if (a(o(t.spec).ephemeralContainers).length > 0) errs.push(fieldErr.forbidden(p.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}

/** The pod template (or nil) a workload carries, with upstream's `Required value` when absent. */
export function templateOrRequired(tpl: unknown, p: FieldPath): Errs {
  return isObj(tpl) ? [] : [fieldErr.required(p, '')];
}
