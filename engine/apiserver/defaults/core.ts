// core/v1 defaulting (pkg/apis/core/v1/defaults.go and zz_generated.defaults.go, v1.32).
// Also fills the empty structs Go always serialises (`resources: {}`, a template's
// `metadata.creationTimestamp: null`), so stored objects read as a real cluster's do.
import { arr, child, def, defStr, each, isObj, type Loose } from './util';
import { base64Encode } from '../../sim/base64';

type Obj = Record<string, Loose>;

/** parsers.ParseImageName's tag: the part after the last ':' that follows the last '/', or "latest". */
export function imageTag(image: string): string {
  const noDigest = image.split('@')[0]!;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  if (image.includes('@') && colon <= slash) return '';
  return colon > slash ? noDigest.slice(colon + 1) : 'latest';
}

function defaultHTTPGet(h: unknown): void {
  if (!isObj(h)) return;
  defStr(h, 'path', '/');
  defStr(h, 'scheme', 'HTTP');
}

function defaultProbe(p: unknown): void {
  if (!isObj(p)) return;
  for (const [k, v] of [
    ['timeoutSeconds', 1],
    ['periodSeconds', 10],
    ['successThreshold', 1],
    ['failureThreshold', 3],
  ] as const) {
    if (p[k] === undefined || p[k] === null || p[k] === 0) p[k] = v;
  }
  defaultHTTPGet(p.httpGet);
  if (isObj(p.grpc)) def(p.grpc, 'service', '');
}

/** SetDefaults_Container plus the generated per-field defaults of a container. */
export function defaultContainer(c: Obj): void {
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === null || c.imagePullPolicy === '') {
    c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  }
  defStr(c, 'terminationMessagePath', '/dev/termination-log');
  defStr(c, 'terminationMessagePolicy', 'File');
  each(c, 'ports', (p) => defStr(p, 'protocol', 'TCP'));
  each(c, 'env', (e) => {
    if (isObj(e.valueFrom) && isObj(e.valueFrom.fieldRef)) defStr(e.valueFrom.fieldRef, 'apiVersion', 'v1');
  });
  child(c, 'resources');
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (isObj(c.lifecycle)) {
    if (isObj(c.lifecycle.postStart)) defaultHTTPGet(c.lifecycle.postStart.httpGet);
    if (isObj(c.lifecycle.preStop)) defaultHTTPGet(c.lifecycle.preStop.httpGet);
  }
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral', 'image',
];

function defaultDownwardItems(items: unknown): void {
  for (const it of arr(items)) if (isObj(it) && isObj(it.fieldRef)) defStr(it.fieldRef, 'apiVersion', 'v1');
}

/** SetDefaults_Volume and the volume sources' defaulters. */
export function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCES.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  if (isObj(v.hostPath)) def(v.hostPath, 'type', '');
  if (isObj(v.secret)) def(v.secret, 'defaultMode', 0o644);
  if (isObj(v.configMap)) def(v.configMap, 'defaultMode', 0o644);
  if (isObj(v.downwardAPI)) {
    def(v.downwardAPI, 'defaultMode', 0o644);
    defaultDownwardItems(v.downwardAPI.items);
  }
  if (isObj(v.projected)) {
    def(v.projected, 'defaultMode', 0o644);
    for (const src of arr(v.projected.sources)) {
      if (!isObj(src)) continue;
      if (isObj(src.downwardAPI)) defaultDownwardItems(src.downwardAPI.items);
      if (isObj(src.serviceAccountToken)) def(src.serviceAccountToken, 'expirationSeconds', 3600);
    }
  }
  if (isObj(v.iscsi)) defStr(v.iscsi, 'iscsiInterface', 'default');
  if (isObj(v.rbd)) {
    defStr(v.rbd, 'pool', 'rbd');
    defStr(v.rbd, 'user', 'admin');
    defStr(v.rbd, 'keyring', '/etc/ceph/keyring');
  }
  if (isObj(v.azureDisk)) {
    def(v.azureDisk, 'cachingMode', 'ReadWrite');
    def(v.azureDisk, 'fsType', 'ext4');
    def(v.azureDisk, 'readOnly', false);
    def(v.azureDisk, 'kind', 'Shared');
  }
  if (isObj(v.scaleIO)) {
    defStr(v.scaleIO, 'storageMode', 'ThinProvisioned');
    defStr(v.scaleIO, 'fsType', 'xfs');
  }
  if (isObj(v.ephemeral) && isObj(v.ephemeral.volumeClaimTemplate)) {
    const t = v.ephemeral.volumeClaimTemplate;
    defaultPVCSpec(child(t, 'spec'));
    templateMeta(t);
  }
}

/** SetDefaults_PodSpec plus the volumes' and containers' defaulters (what every pod template gets). */
export function defaultPodSpec(spec: Obj): void {
  defStr(spec, 'dnsPolicy', 'ClusterFirst');
  defStr(spec, 'restartPolicy', 'Always');
  def(spec, 'securityContext', {});
  def(spec, 'terminationGracePeriodSeconds', 30);
  defStr(spec, 'schedulerName', 'default-scheduler');
  each(spec, 'volumes', defaultVolume);
  each(spec, 'initContainers', defaultContainer);
  each(spec, 'containers', defaultContainer);
  each(spec, 'ephemeralContainers', defaultContainer);
}

/** A pod template's metadata always serialises, with `creationTimestamp: null`. */
export function templateMeta(t: Obj): void {
  const m = child(t, 'metadata');
  if (!('creationTimestamp' in m)) m.creationTimestamp = null;
}

export function defaultPodTemplateSpec(t: unknown): void {
  if (!isObj(t)) return;
  templateMeta(t);
  defaultPodSpec(child(t, 'spec'));
}

/** SetDefaults_Pod (only Pods, not templates: requests from limits, enableServiceLinks, host-network ports). */
export function defaultPod(pod: Obj): void {
  const spec = child(pod, 'spec');
  for (const k of ['containers', 'initContainers']) {
    each(spec, k, (c) => {
      const res = isObj(c.resources) ? c.resources : undefined;
      if (res && isObj(res.limits)) {
        const req = child(res, 'requests');
        for (const [name, v] of Object.entries(res.limits)) if (!(name in req)) req[name] = v;
      }
    });
  }
  def(spec, 'enableServiceLinks', true);
  if (spec.hostNetwork === true) {
    for (const k of ['containers', 'initContainers']) {
      each(spec, k, (c) => each(c, 'ports', (p) => {
        if (!p.hostPort) p.hostPort = p.containerPort;
      }));
    }
  }
  defaultPodSpec(spec);
}

export function defaultPVCSpec(spec: Obj): void {
  def(spec, 'volumeMode', 'Filesystem');
  child(spec, 'resources');
}

export function defaultPVC(pvc: Obj): void {
  defaultPVCSpec(child(pvc, 'spec'));
  defStr(child(pvc, 'status'), 'phase', 'Pending');
}

export function defaultPV(pv: Obj): void {
  const spec = child(pv, 'spec');
  defStr(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  def(spec, 'volumeMode', 'Filesystem');
  if (isObj(spec.hostPath)) def(spec.hostPath, 'type', '');
  defStr(child(pv, 'status'), 'phase', 'Pending');
}

/** SetDefaults_Service. Cluster IPs, IP families and node ports come from the registry (see service.ts). */
export function defaultService(svc: Obj): void {
  const spec = child(svc, 'spec');
  defStr(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const t = isObj(spec.sessionAffinityConfig) && isObj(spec.sessionAffinityConfig.clientIP) ? spec.sessionAffinityConfig.clientIP.timeoutSeconds : undefined;
    if (t === undefined || t === null) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  defStr(spec, 'type', 'ClusterIP');
  each(spec, 'ports', (p) => {
    defStr(p, 'protocol', 'TCP');
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  });
  const externallyAccessible = spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && arr(spec.externalIPs).length > 0);
  if (externallyAccessible) defStr(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    def(spec, 'allocateLoadBalancerNodePorts', true);
    const ing = isObj(svc.status) && isObj(svc.status.loadBalancer) ? arr(svc.status.loadBalancer.ingress) : [];
    for (const i of ing) if (isObj(i) && i.ip && (i.ipMode === undefined || i.ipMode === null)) i.ipMode = 'VIP';
  }
}

export function defaultNamespace(ns: Obj): void {
  const meta = child(ns, 'metadata');
  if (typeof meta.name === 'string' && meta.name.length > 0) child(meta, 'labels')['kubernetes.io/metadata.name'] = meta.name;
  defStr(child(ns, 'status'), 'phase', 'Active');
}

export function defaultNode(node: Obj): void {
  if (!isObj(node.status)) return;
  if (isObj(node.status.capacity) && (node.status.allocatable === undefined || node.status.allocatable === null)) {
    node.status.allocatable = { ...node.status.capacity };
  }
}

export function defaultSecret(sec: Obj): void {
  defStr(sec, 'type', 'Opaque');
  // Conversion from v1 folds stringData into data (the internal type has no stringData).
  if (isObj(sec.stringData)) {
    const data = child(sec, 'data');
    for (const [k, v] of Object.entries(sec.stringData)) data[k] = base64Utf8(typeof v === 'string' ? v : String(v));
    delete sec.stringData;
  }
}

export function base64Utf8(text: string): string {
  return base64Encode(new TextEncoder().encode(text));
}

export function defaultEndpoints(ep: Obj): void {
  each(ep, 'subsets', (ss) => each(ss, 'ports', (p) => defStr(p, 'protocol', 'TCP')));
}

/** SetDefaults_LimitRangeItem: container limits default from max, requests from default then min. */
export function defaultLimitRange(lr: Obj): void {
  const spec = child(lr, 'spec');
  each(spec, 'limits', (item) => {
    if (item.type !== 'Container') return;
    const d = child(item, 'default');
    const dr = child(item, 'defaultRequest');
    for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) if (!(k in d)) d[k] = v;
    for (const [k, v] of Object.entries(d)) if (!(k in dr)) dr[k] = v;
    for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) if (!(k in dr)) dr[k] = v;
  });
}

export function defaultReplicationController(rc: Obj): void {
  const spec = child(rc, 'spec');
  const labels = isObj(spec.template) && isObj(spec.template.metadata) && isObj(spec.template.metadata.labels) ? spec.template.metadata.labels : undefined;
  if (labels) {
    if (!isObj(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    const meta = child(rc, 'metadata');
    if (!isObj(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
  }
  def(spec, 'replicas', 1);
  defaultPodTemplateSpec(spec.template);
}
