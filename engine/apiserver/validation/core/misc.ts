// The other core/v1 kinds (pkg/apis/core/validation/validation.go v1.32 and
// events.go): ConfigMap, Secret, Namespace, Node, ServiceAccount, LimitRange,
// ResourceQuota, PersistentVolume(Claim), Event, Endpoints, PodTemplate,
// ReplicationController.
import { formatQuantity, intValue, milliValue, type Quantity } from '../quantity';
import { isCIDR, isConfigMapKey, isDNS1123Label, isDNS1123Subdomain, isIP, isIPv6, isQualifiedName, isValidLabelValue, CIDR_ERROR, IP_ERROR } from '../../../apimachinery/validation/names';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../names';
import { selectorMatches, validateLabelName, validateLabelSelector, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from '../objectMeta';
import { a, clone, deepEqual, fieldErr, FieldPath, goInvalid, goStringMap, has, immutable, isObj, keys, msgs, n, nonNegative, o, root, s, sortedKeys, type Errs, type Loose } from '../util';
import { validatePodTemplateSpec, validateTaintEffect } from './pod';
import { q, validateGenericResourceName, validateResourceQuantityValue, isHugePageResourceName } from './resources';
import { utf8Length } from '../../../sim/utf8';

export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/** Length of the bytes a base64 string stands for. */
export function base64DecodedLength(b64: string): number {
  const clean = b64.replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

// ---------------------------------------------------------------- ConfigMap and Secret

export function validateConfigMap(cm: Loose): Errs {
  const errs = validateObjectMeta(cm.metadata, true, nameIsDNSSubdomain);
  let total = 0;
  const bin = o(cm.binaryData) as Record<string, unknown>;
  for (const k of sortedKeys(cm.data)) {
    errs.push(...msgs(root('data').key(k), k, isConfigMapKey(k)));
    if (Object.hasOwn(bin, k)) errs.push(fieldErr.invalid(root('data').key(k), k, 'duplicate of key present in binaryData'));
    total += utf8Length(s((cm.data as Record<string, unknown>)[k]));
  }
  for (const k of sortedKeys(bin)) {
    errs.push(...msgs(root('binaryData').key(k), k, isConfigMapKey(k)));
    total += base64DecodedLength(s(bin[k]));
  }
  if (total > MAX_SECRET_SIZE) errs.push(fieldErr.tooLong(FieldPath.root(''), '', MAX_SECRET_SIZE));
  return errs;
}

export function validateConfigMapUpdate(cm: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata);
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(fieldErr.forbidden(root('immutable'), IMMUTABLE_WHEN_SET));
    if (!deepEqual(cm.data, old.data)) errs.push(fieldErr.forbidden(root('data'), IMMUTABLE_WHEN_SET));
    if (!deepEqual(cm.binaryData, old.binaryData)) errs.push(fieldErr.forbidden(root('binaryData'), IMMUTABLE_WHEN_SET));
  }
  errs.push(...validateConfigMap(cm));
  return errs;
}

export function validateSecret(sec: Loose): Errs {
  const errs = validateObjectMeta(sec.metadata, true, nameIsDNSSubdomain);
  const dataPath = root('data');
  const data = o(sec.data) as Record<string, unknown>;
  let total = 0;
  for (const k of sortedKeys(data)) {
    errs.push(...msgs(dataPath.key(k), k, isConfigMapKey(k)));
    total += base64DecodedLength(s(data[k]));
  }
  if (total > MAX_SECRET_SIZE) errs.push(fieldErr.tooLong(dataPath, '', MAX_SECRET_SIZE));
  const present = (k: string) => Object.hasOwn(data, k);
  switch (s(sec.type)) {
    case 'kubernetes.io/service-account-token': {
      const ann = o(o(sec.metadata).annotations) as Record<string, unknown>;
      if (!s(ann['kubernetes.io/service-account.name'])) errs.push(fieldErr.required(root('metadata', 'annotations').key('kubernetes.io/service-account.name'), ''));
      break;
    }
    case 'kubernetes.io/dockercfg':
      if (!present('.dockercfg')) errs.push(fieldErr.required(dataPath.key('.dockercfg'), ''));
      else if (!isJsonObject(decodeBase64(s(data['.dockercfg'])))) errs.push(fieldErr.invalid(dataPath.key('.dockercfg'), '<secret contents redacted>', 'invalid character looking for beginning of value'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!present('.dockerconfigjson')) errs.push(fieldErr.required(dataPath.key('.dockerconfigjson'), ''));
      else if (!isJsonObject(decodeBase64(s(data['.dockerconfigjson'])))) errs.push(fieldErr.invalid(dataPath.key('.dockerconfigjson'), '<secret contents redacted>', 'invalid character looking for beginning of value'));
      break;
    case 'kubernetes.io/basic-auth':
      if (!present('username') && !present('password')) {
        errs.push(fieldErr.required(dataPath.key('username'), ''));
        errs.push(fieldErr.required(dataPath.key('password'), ''));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!s(data['ssh-privatekey'])) errs.push(fieldErr.required(dataPath.key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      if (!present('tls.crt')) errs.push(fieldErr.required(dataPath.key('tls.crt'), ''));
      if (!present('tls.key')) errs.push(fieldErr.required(dataPath.key('tls.key'), ''));
      break;
    default:
      break;
  }
  return errs;
}

function decodeBase64(b64: string): string {
  try {
    return atob(b64.replace(/\s/g, ''));
  } catch {
    return '';
  }
}
function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v);
  } catch {
    return false;
  }
}

export function validateSecretUpdate(sec: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(sec.metadata, old.metadata);
  errs.push(...immutable(s(sec.type), s(old.type), root('type')));
  if (old.immutable === true) {
    if (sec.immutable !== true) errs.push(fieldErr.forbidden(root('immutable'), IMMUTABLE_WHEN_SET));
    if (!deepEqual(sec.data, old.data)) errs.push(fieldErr.forbidden(root('data'), IMMUTABLE_WHEN_SET));
  }
  errs.push(...validateSecret(sec));
  return errs;
}

// ---------------------------------------------------------------- Namespace, ServiceAccount

const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion'];

export function validateNamespace(ns: Loose): Errs {
  const errs = validateObjectMeta(ns.metadata, false, nameIsDNSLabel);
  const p = root('spec', 'finalizers');
  for (const f of a(o(ns.spec).finalizers).map(s)) {
    errs.push(...msgs(p, f, isQualifiedName(f)));
    if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f) && !f.includes('kubernetes.io/')) {
      errs.push(fieldErr.invalid(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

export function validateNamespaceUpdate(ns: Loose, old: Loose): Errs {
  return [...validateNamespace(ns), ...validateObjectMetaUpdate(ns.metadata, old.metadata)];
}

export function validateNamespaceStatusUpdate(ns: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(ns.metadata, old.metadata);
  const phase = s(o(ns.status).phase);
  if (!o(ns.metadata).deletionTimestamp) {
    if (phase !== 'Active') errs.push(fieldErr.invalid(root('status', 'Phase'), phase, "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== 'Terminating') {
    errs.push(fieldErr.invalid(root('status', 'Phase'), phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

/** Namespace finalize subresource: spec.finalizers must be valid names. */
export function validateNamespaceFinalizeUpdate(ns: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(ns.metadata, old.metadata);
  a(o(ns.spec).finalizers).forEach((f, i) => errs.push(...msgs(root('spec', 'finalizers').index(i), s(f), isQualifiedName(s(f)))));
  return errs;
}

export function validateServiceAccount(sa: Loose): Errs {
  return validateObjectMeta(sa.metadata, true, nameIsDNSSubdomain);
}

// ---------------------------------------------------------------- Node

function validateNodeTaints(taints: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const unique = new Map<string, Set<string>>();
  a(taints).forEach((t, i) => {
    const ip = p.index(i);
    const tt = o(t);
    const key = s(tt.key);
    const effect = s(tt.effect);
    errs.push(...validateLabelName(key, ip.child('key')));
    const vm = isValidLabelValue(s(tt.value));
    if (vm.length) errs.push(fieldErr.invalid(ip.child('value'), s(tt.value), vm.join(';')));
    errs.push(...validateTaintEffect(effect, false, ip.child('effect')));
    if (unique.get(effect)?.has(key)) {
      errs.push({ ...fieldErr.duplicate(ip, tt), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    if (!unique.has(effect)) unique.set(effect, new Set());
    unique.get(effect)!.add(key);
  });
  return errs;
}

function validateNodeResources(node: Loose): Errs {
  const errs: Errs = [];
  const st = o(node.status);
  for (const which of ['capacity', 'allocatable']) {
    for (const k of sortedKeys(st[which])) {
      const p = root('status', which).key(k);
      errs.push(...validateGenericResourceName(k, p));
      const v = q((st[which] as Record<string, unknown>)[k]);
      if (v) errs.push(...validateResourceQuantityValue(k, v, p));
    }
  }
  return errs;
}

export function validateNode(node: Loose): Errs {
  const meta = root('metadata');
  const errs = validateObjectMeta(node.metadata, false, nameIsDNSSubdomain, meta);
  const spec = o(node.spec);
  if (a(spec.taints).length) errs.push(...validateNodeTaints(spec.taints, meta.child('taints')));
  errs.push(...validateNodeResources(node));
  const cidrs = a(spec.podCIDRs).map(s);
  if (cidrs.length) {
    const p = root('spec', 'podCIDRs');
    cidrs.forEach((c, i) => {
      if (!isCIDR(c)) errs.push(fieldErr.invalid(p.index(i), c, CIDR_ERROR));
    });
    if (cidrs.length > 1 && (cidrs.length > 2 || isIPv6(cidrs[0]!.split('/')[0]!) === isIPv6(cidrs[1]!.split('/')[0]!))) {
      errs.push(fieldErr.invalid(p, cidrs, 'may specify no more than one CIDR for each IP family'));
    }
  }
  return errs;
}

export function validateNodeUpdate(node: Loose, old: Loose): Errs {
  const meta = root('metadata');
  const errs = validateObjectMetaUpdate(node.metadata, old.metadata, meta);
  errs.push(...validateNodeResources(node));
  const seen = new Set<string>();
  a(o(node.status).addresses).forEach((ad, i) => {
    const key = JSON.stringify([s(o(ad).type), s(o(ad).address)]);
    if (seen.has(key)) errs.push(fieldErr.duplicate(root('status', 'addresses').index(i), ad));
    seen.add(key);
  });
  const ns = o(node.spec);
  const os = o(old.spec);
  const oldCidrs = a(os.podCIDRs).map(s);
  const newCidrs = a(ns.podCIDRs).map(s);
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (oldCidrs.length) {
    if (oldCidrs.length !== newCidrs.length) errs.push(fieldErr.forbidden(root('spec', 'podCIDRs'), cidrMsg));
    else oldCidrs.forEach((c, i) => {
      if (c !== newCidrs[i]) errs.push(fieldErr.forbidden(root('spec', 'podCIDRs'), cidrMsg));
    });
  }
  if (s(os.providerID) && s(os.providerID) !== s(ns.providerID)) {
    errs.push(fieldErr.forbidden(root('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  if (a(ns.taints).length) errs.push(...validateNodeTaints(ns.taints, meta.child('taints')));
  if (s(ns.externalID) !== s(os.externalID)) errs.push(fieldErr.forbidden(root('spec', 'externalID'), 'may not be updated'));
  return errs;
}

// ---------------------------------------------------------------- LimitRange, ResourceQuota

const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];

function qOf(m: unknown, k: string): Quantity | null {
  return q((o(m) as Record<string, unknown>)[k]);
}

export function validateLimitRange(lr: Loose): Errs {
  const errs = validateObjectMeta(lr.metadata, true, nameIsDNSSubdomain);
  const limitsPath = root('spec', 'limits');
  const seenTypes = new Set<string>();
  a(o(lr.spec).limits).forEach((item, i) => {
    const ip = limitsPath.index(i);
    const l = o(item);
    const type = s(l.type);
    errs.push(...msgs(ip.child('type'), type, isQualifiedName(type)));
    if (!type.includes('/') && !LIMIT_TYPES.includes(type)) errs.push(fieldErr.invalid(ip.child('type'), type, 'must be a standard limit type or fully qualified'));
    if (seenTypes.has(type)) errs.push(fieldErr.duplicate(ip.child('type'), type));
    seenTypes.add(type);
    const ks = new Set<string>();
    for (const field of ['max', 'min']) for (const k of sortedKeys(l[field])) {
      errs.push(...validateLimitRangeResourceName(type, k, ip.child(field).key(k)));
      ks.add(k);
    }
    if (type === 'Pod') {
      if (keys(l.default).length) errs.push(fieldErr.forbidden(ip.child('default'), "may not be specified when `type` is 'Pod'"));
      if (keys(l.defaultRequest).length) errs.push(fieldErr.forbidden(ip.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      for (const field of ['default', 'defaultRequest']) for (const k of sortedKeys(l[field])) {
        errs.push(...validateLimitRangeResourceName(type, k, ip.child(field).key(k)));
        ks.add(k);
      }
    }
    if (type === 'PersistentVolumeClaim' && !has(o(l.min).storage) && !has(o(l.max).storage)) {
      errs.push(fieldErr.required(ip.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    }
    for (const k of sortedKeys(l.maxLimitRequestRatio)) {
      errs.push(...validateLimitRangeResourceName(type, k, ip.child('maxLimitRequestRatio').key(k)));
      ks.add(k);
    }
    for (const k of [...ks].sort()) {
      const min = qOf(l.min, k);
      const max = qOf(l.max, k);
      const def = qOf(l.default, k);
      const defReq = qOf(l.defaultRequest, k);
      const ratio = qOf(l.maxLimitRequestRatio, k);
      const f = formatQuantity;
      if (min && max && min.nanos > max.nanos) errs.push(fieldErr.invalid(ip.child('min').key(k), f(min), `min value ${f(min)} is greater than max value ${f(max)}`));
      if (defReq && min && min.nanos > defReq.nanos) errs.push(fieldErr.invalid(ip.child('defaultRequest').key(k), f(defReq), `min value ${f(min)} is greater than default request value ${f(defReq)}`));
      if (defReq && max && defReq.nanos > max.nanos) errs.push(fieldErr.invalid(ip.child('defaultRequest').key(k), f(defReq), `default request value ${f(defReq)} is greater than max value ${f(max)}`));
      if (defReq && def && defReq.nanos > def.nanos) errs.push(fieldErr.invalid(ip.child('defaultRequest').key(k), f(defReq), `default request value ${f(defReq)} is greater than default limit value ${f(def)}`));
      if (def && min && min.nanos > def.nanos) errs.push(fieldErr.invalid(ip.child('default').key(k), f(min), `min value ${f(min)} is greater than default value ${f(def)}`));
      if (def && max && def.nanos > max.nanos) errs.push(fieldErr.invalid(ip.child('default').key(k), f(max), `default value ${f(def)} is greater than max value ${f(max)}`));
      if (ratio && ratio.nanos < 1_000_000_000n) errs.push(fieldErr.invalid(ip.child('maxLimitRequestRatio').key(k), f(ratio), `ratio ${f(ratio)} is less than 1`));
      if (ratio && min && max) {
        const limit = Number(milliValue(max)) / Number(milliValue(min));
        if (Number(milliValue(ratio)) / 1000 > limit) {
          errs.push(fieldErr.invalid(ip.child('maxLimitRequestRatio').key(k), f(ratio), `ratio ${f(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
        }
      }
    }
  });
  return errs;
}

function validateLimitRangeResourceName(type: string, name: string, p: FieldPath): Errs {
  if (type === 'Pod' || type === 'Container') {
    const errs = validateGenericResourceName(name, p);
    if (!errs.length && !name.includes('/') && !['cpu', 'memory', 'ephemeral-storage'].includes(name) && !isHugePageResourceName(name)) {
      errs.push(fieldErr.invalid(p, name, 'must be a standard resource for containers'));
    }
    return errs;
  }
  return validateGenericResourceName(name, p);
}

const QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

function validateQuotaList(list: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  for (const k of sortedKeys(list)) {
    const rp = p.key(k);
    const nameErrs = validateGenericResourceName(k, rp);
    if (!nameErrs.length && !k.includes('/') && !QUOTA_RESOURCES.has(k) && !k.startsWith('requests.hugepages-')) {
      nameErrs.push(fieldErr.invalid(rp, k, 'must be a standard resource for quota'));
    }
    errs.push(...nameErrs);
    const v = q((list as Record<string, unknown>)[k]);
    if (v) errs.push(...validateResourceQuantityValue(k, v, rp));
  }
  return errs;
}

const QUOTA_SCOPES = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating', 'VolumeAttributesClass'];

export function validateResourceQuota(rq: Loose): Errs {
  const errs = validateObjectMeta(rq.metadata, true, nameIsDNSSubdomain);
  const spec = o(rq.spec);
  errs.push(...validateQuotaList(spec.hard, root('spec', 'hard')));
  a(spec.scopes).forEach((sc) => {
    if (!QUOTA_SCOPES.includes(s(sc))) errs.push(fieldErr.invalid(root('spec', 'scopes'), spec.scopes, 'unsupported scope'));
  });
  const st = o(rq.status);
  errs.push(...validateQuotaList(st.hard, root('status', 'hard')));
  errs.push(...validateQuotaList(st.used, root('status', 'used')));
  return errs;
}

export function validateResourceQuotaUpdate(rq: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(rq.metadata, old.metadata);
  errs.push(...validateQuotaList(o(rq.spec).hard, root('spec', 'hard')));
  const ns = a(o(rq.spec).scopes).map(s).sort();
  const os = a(o(old.spec).scopes).map(s).sort();
  if (!deepEqual(ns, os)) errs.push(fieldErr.invalid(root('spec', 'scopes'), o(rq.spec).scopes ?? null, 'field is immutable'));
  return errs;
}

export function validateResourceQuotaStatusUpdate(rq: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(rq.metadata, old.metadata);
  errs.push(...validateQuotaList(o(rq.status).hard, root('status', 'hard')));
  errs.push(...validateQuotaList(o(rq.status).used, root('status', 'used')));
  return errs;
}

// ---------------------------------------------------------------- PersistentVolume(Claim)

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const PV_SOURCES = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'hostPath',
  'glusterfs',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flocker',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'local',
  'storageos',
  'csi',
];

function validateAccessModes(modes: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const set = new Set<string>();
  for (const m of a(modes)) {
    if (!ACCESS_MODES.includes(s(m))) errs.push(fieldErr.notSupported(p, m, ACCESS_MODES));
    set.add(s(m));
  }
  if (set.has('ReadWriteOncePod') && set.size > 1) errs.push(fieldErr.forbidden(p, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

export function validatePersistentVolume(pv: Loose): Errs {
  const errs = validateObjectMeta(pv.metadata, false, nameIsDNSSubdomain);
  const spec = o(pv.spec);
  const p = root('spec');
  if (a(spec.accessModes).length === 0) errs.push(fieldErr.required(p.child('accessModes'), ''));
  errs.push(...validateAccessModes(spec.accessModes, p.child('accessModes')));
  const cap = o(spec.capacity) as Record<string, unknown>;
  if (keys(cap).length === 0) errs.push(fieldErr.required(p.child('capacity'), ''));
  if (!Object.hasOwn(cap, 'storage') || keys(cap).length > 1) errs.push(fieldErr.notSupported(p.child('capacity'), cap, ['storage']));
  for (const k of sortedKeys(cap)) {
    const v = q(cap[k]);
    if (v && v.nanos <= 0n) errs.push(fieldErr.invalid(p.child('capacity').key(k), formatQuantity(v), 'must be greater than zero'));
  }
  if (s(spec.storageClassName)) errs.push(...msgs(p.child('storageClassName'), s(spec.storageClassName), isDNS1123Subdomain(s(spec.storageClassName))));
  if (has(spec.volumeMode) && !VOLUME_MODES.includes(s(spec.volumeMode))) errs.push(fieldErr.notSupported(p.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  const rp = s(spec.persistentVolumeReclaimPolicy);
  if (rp && !['Delete', 'Recycle', 'Retain'].includes(rp)) errs.push(fieldErr.notSupported(p.child('persistentVolumeReclaimPolicy'), rp, ['Delete', 'Recycle', 'Retain']));
  let count = 0;
  for (const t of PV_SOURCES) {
    if (!has(spec[t])) continue;
    if (count > 0) errs.push(fieldErr.forbidden(p.child(t), 'may not specify more than 1 volume type'));
    count++;
    const src = o(spec[t]);
    if (t === 'hostPath' && !s(src.path)) errs.push(fieldErr.required(p.child('hostPath', 'path'), ''));
    if (t === 'local' && !s(src.path)) errs.push(fieldErr.required(p.child('local', 'path'), ''));
    if (t === 'nfs') {
      if (!s(src.server)) errs.push(fieldErr.required(p.child('nfs', 'server'), ''));
      if (!s(src.path)) errs.push(fieldErr.required(p.child('nfs', 'path'), ''));
    }
    if (t === 'csi') {
      if (!s(src.driver)) errs.push(fieldErr.required(p.child('csi', 'driver'), ''));
      if (!s(src.volumeHandle)) errs.push(fieldErr.required(p.child('csi', 'volumeHandle'), ''));
    }
  }
  if (count === 0) errs.push(fieldErr.required(p, 'must specify a volume type'));
  if (has(spec.local) && !has(spec.nodeAffinity)) errs.push(fieldErr.required(p.child('nodeAffinity'), 'Local volume requires node affinity'));
  return errs;
}

export function validatePersistentVolumeUpdate(pv: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(pv.metadata, old.metadata);
  errs.push(...validatePersistentVolume(pv));
  const ns = o(pv.spec);
  const os = o(old.spec);
  for (const t of PV_SOURCES) if (has(os[t]) && !deepEqual(ns[t], os[t])) errs.push(fieldErr.forbidden(root('spec', 'persistentvolumesource'), 'spec.persistentvolumesource is forbidden.'));
  errs.push(...immutable(ns.volumeMode ?? null, os.volumeMode ?? null, root('volumeMode')));
  if (has(os.nodeAffinity)) errs.push(...immutable(ns.nodeAffinity, os.nodeAffinity, root('nodeAffinity')));
  return errs;
}

export function validatePVCSpec(spec: unknown, p: FieldPath): Errs {
  const sp = o(spec);
  const errs: Errs = [];
  if (a(sp.accessModes).length === 0) errs.push(fieldErr.required(p.child('accessModes'), 'at least 1 access mode is required'));
  if (has(sp.selector)) errs.push(...validateLabelSelector(sp.selector, {}, p.child('selector')));
  errs.push(...validateAccessModes(sp.accessModes, p.child('accessModes')));
  const rp = p.child('resources').key('storage');
  const storage = o(o(sp.resources).requests).storage;
  const v = q(storage);
  if (!has(storage)) errs.push(fieldErr.required(rp, ''));
  else if (v && v.nanos <= 0n) errs.push(fieldErr.invalid(rp, formatQuantity(v), 'must be greater than zero'));
  else if (v) errs.push(...validateResourceQuantityValue('storage', v, rp));
  if (s(sp.storageClassName)) errs.push(...msgs(p.child('storageClassName'), s(sp.storageClassName), isDNS1123Subdomain(s(sp.storageClassName))));
  if (has(sp.volumeMode) && !VOLUME_MODES.includes(s(sp.volumeMode))) errs.push(fieldErr.notSupported(p.child('volumeMode'), sp.volumeMode, VOLUME_MODES));
  return errs;
}

export function validatePersistentVolumeClaim(pvc: Loose): Errs {
  const errs = validateObjectMeta(pvc.metadata, true, nameIsDNSSubdomain);
  errs.push(...validatePVCSpec(pvc.spec, root('spec')));
  return errs;
}

export function validatePersistentVolumeClaimUpdate(pvc: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(pvc.metadata, old.metadata);
  errs.push(...validatePersistentVolumeClaim(pvc));
  const ns = clone(o(pvc.spec));
  const os = clone(o(old.spec));
  if (!s(os.volumeName)) os.volumeName = ns.volumeName;
  if (s(o(pvc.status).phase) === 'Bound' && isObj(o(ns.resources).requests)) {
    ns.resources.requests.storage = o(os.resources).requests?.storage;
  }
  ns.volumeAttributesClassName = os.volumeAttributesClassName;
  if (!deepEqual(ns, os)) errs.push(fieldErr.forbidden(root('spec'), 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  const newSize = q(o(o(o(pvc.spec).resources).requests).storage);
  const oldSize = q(o(o(o(old.spec).resources).requests).storage);
  if (newSize && oldSize && newSize.nanos < oldSize.nanos) errs.push(fieldErr.forbidden(root('spec', 'resources', 'requests', 'storage'), 'field can not be less than previous value'));
  return errs;
}

// ---------------------------------------------------------------- Event

/** legacyValidateEvent (core/v1 events are checked loosely for compatibility). */
export function validateEvent(ev: Loose, group: string): Errs {
  const errs: Errs = [];
  const ns = s(o(ev.metadata).namespace);
  if (group === 'events.k8s.io') {
    errs.push(...validateObjectMeta(ev.metadata, true, nameIsDNSSubdomain));
    const regarding = o(ev.regarding);
    if (!s(ev.eventTime)) errs.push(fieldErr.required(root('eventTime'), ''));
    if (s(ev.type) !== 'Normal' && s(ev.type) !== 'Warning') errs.push(fieldErr.invalid(root('type'), '', `has invalid value: ${s(ev.type)}`));
    if (!s(ev.reportingController)) errs.push(fieldErr.required(root('reportingController'), ''));
    errs.push(...msgs(root('reportingController'), s(ev.reportingController), isQualifiedName(s(ev.reportingController))));
    if (!s(ev.reportingInstance)) errs.push(fieldErr.required(root('reportingInstance'), ''));
    if (!s(ev.action)) errs.push(fieldErr.required(root('action'), ''));
    if (!s(ev.reason)) errs.push(fieldErr.required(root('reason'), ''));
    if (s(ev.note).length > 1024) errs.push(fieldErr.invalid(root('note'), '', 'can have at most 1024 characters'));
    if (s(regarding.namespace) && s(regarding.namespace) !== ns) errs.push(fieldErr.invalid(root('involvedObject', 'namespace'), s(regarding.namespace), 'does not match event.namespace'));
    return errs;
  }
  const io = o(ev.involvedObject);
  const ioNs = s(io.namespace);
  if (!s(ev.eventTime)) {
    if (!ioNs) {
      if (ns !== '' && ns !== 'default') errs.push(fieldErr.invalid(root('involvedObject', 'namespace'), ioNs, 'does not match event.namespace'));
    } else if (ns !== ioNs) {
      errs.push(fieldErr.invalid(root('involvedObject', 'namespace'), ioNs, 'does not match event.namespace'));
    }
  } else {
    if (!ioNs && ns !== 'default' && ns !== 'kube-system') errs.push(fieldErr.invalid(root('involvedObject', 'namespace'), ioNs, 'does not match event.namespace'));
    if (!s(ev.reportingComponent)) errs.push(fieldErr.required(root('source'), ''));
    errs.push(...msgs(root('source'), s(ev.reportingComponent), isQualifiedName(s(ev.reportingComponent))));
    if (!s(ev.reportingInstance)) errs.push(fieldErr.required(root('reportingInstance'), ''));
    if (s(ev.reportingInstance).length > 128) errs.push(fieldErr.invalid(root('reportingInstance'), '', 'can have at most 128 characters'));
    if (!s(ev.action)) errs.push(fieldErr.required(root('action'), ''));
    if (s(ev.action).length > 128) errs.push(fieldErr.invalid(root('action'), '', 'can have at most 128 characters'));
    if (!s(ev.reason)) errs.push(fieldErr.required(root('reason'), ''));
    if (s(ev.reason).length > 128) errs.push(fieldErr.invalid(root('reason'), '', 'can have at most 128 characters'));
    if (s(ev.message).length > 1024) errs.push(fieldErr.invalid(root('message'), '', 'can have at most 1024 characters'));
  }
  errs.push(...msgs(root('namespace'), ns, isDNS1123Subdomain(ns)));
  return errs;
}

// ---------------------------------------------------------------- Endpoints

export function validateEndpoints(ep: Loose): Errs {
  const errs = validateObjectMeta(ep.metadata, true, nameIsDNSSubdomain);
  a(ep.subsets).forEach((ss, i) => {
    const sp = root('subsets').index(i);
    const sub = o(ss);
    if (a(sub.addresses).length === 0 && a(sub.notReadyAddresses).length === 0) {
      errs.push(fieldErr.required(sp, 'must specify `addresses` or `notReadyAddresses`'));
    }
    for (const field of ['addresses', 'notReadyAddresses']) {
      a(sub[field]).forEach((ad, j) => {
        const ip = s(o(ad).ip);
        if (!isIP(ip)) errs.push(fieldErr.invalid(sp.child(field).index(j).child('ip'), ip, IP_ERROR));
        if (s(o(ad).hostname)) errs.push(...msgs(sp.child(field).index(j).child('hostname'), s(o(ad).hostname), isDNS1123Label(s(o(ad).hostname))));
      });
    }
    a(sub.ports).forEach((pt, j) => {
      const pp = sp.child('ports').index(j);
      const port = o(pt);
      if (a(sub.ports).length > 1 && !s(port.name)) errs.push(fieldErr.required(pp.child('name'), ''));
      else if (s(port.name)) errs.push(...msgs(pp.child('name'), s(port.name), isDNS1123Label(s(port.name))));
      errs.push(...msgs(pp.child('port'), n(port.port), n(port.port) >= 1 && n(port.port) <= 65535 ? [] : ['must be between 1 and 65535, inclusive']));
      if (!s(port.protocol)) errs.push(fieldErr.required(pp.child('protocol'), ''));
      else if (!['SCTP', 'TCP', 'UDP'].includes(s(port.protocol))) errs.push(fieldErr.notSupported(pp.child('protocol'), s(port.protocol), ['SCTP', 'TCP', 'UDP']));
    });
  });
  return errs;
}

// ---------------------------------------------------------------- PodTemplate, ReplicationController

export function validatePodTemplate(pt: Loose): Errs {
  const errs = validateObjectMeta(pt.metadata, true, nameIsDNSSubdomain);
  errs.push(...validatePodTemplateSpec(pt.template, root('template')));
  return errs;
}

export function validateReplicationControllerSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs = nonNegative(sp.minReadySeconds, p.child('minReadySeconds'));
  if (keys(sp.selector).length === 0) errs.push(fieldErr.required(p.child('selector'), ''));
  errs.push(...nonNegative(sp.replicas, p.child('replicas')));
  const tp = p.child('template');
  if (!isObj(sp.template)) errs.push(fieldErr.required(tp, ''));
  else {
    const tpl = sp.template as Loose;
    const tplLabels = o(tpl.metadata).labels;
    if (keys(sp.selector).length > 0 && !selectorMatches({ matchLabels: sp.selector }, tplLabels)) {
      errs.push(goInvalid(tp.child('metadata', 'labels'), goStringMap(tplLabels), '`selector` does not match template `labels`'));
    }
    errs.push(...validatePodTemplateSpec(tpl, tp));
    const rp = s(o(tpl.spec).restartPolicy);
    if (rp !== 'Always') errs.push(fieldErr.notSupported(tp.child('spec', 'restartPolicy'), rp, ['Always']));
    if (has(o(tpl.spec).activeDeadlineSeconds)) errs.push(fieldErr.forbidden(tp.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

export function validateReplicationController(rc: Loose): Errs {
  return [...validateObjectMeta(rc.metadata, true, nameIsDNSSubdomain), ...validateReplicationControllerSpec(rc.spec)];
}

export function validateReplicationControllerStatus(rc: Loose): Errs {
  return validateReplicaStatusCounts(o(rc.status), root('status'));
}

/** ValidateReplicationControllerStatus, and ValidateReplicaSetStatus which checks the same counts. */
export function validateReplicaStatusCounts(st: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  for (const k of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) errs.push(...nonNegative(st[k], p.child(k)));
  const msg = 'cannot be greater than status.replicas';
  if (n(st.fullyLabeledReplicas) > n(st.replicas)) errs.push(fieldErr.invalid(p.child('fullyLabeledReplicas'), n(st.fullyLabeledReplicas), msg));
  if (n(st.readyReplicas) > n(st.replicas)) errs.push(fieldErr.invalid(p.child('readyReplicas'), n(st.readyReplicas), msg));
  if (n(st.availableReplicas) > n(st.replicas)) errs.push(fieldErr.invalid(p.child('availableReplicas'), n(st.availableReplicas), msg));
  if (n(st.availableReplicas) > n(st.readyReplicas)) errs.push(fieldErr.invalid(p.child('availableReplicas'), n(st.availableReplicas), 'cannot be greater than readyReplicas'));
  return errs;
}

export { intValue, validateLabels, isValidLabelValue };
