// CSI helpers the volume plugins share: which in-tree volume plugins migrate
// to which CSI driver and how their volume IDs translate (the parts of
// k8s.io/csi-translation-lib the scheduler uses), whether migration is on for
// a node (nodevolumelimits/utils.go isCSIMigrationOn, v1.32), and the
// attach-limit resource key (volumeutil.GetCSIAttachLimitKey).
import { toHex, utf8 } from '../../../apiserver/auth/sha256';
import type { Volume } from '../../framework/api';
import { LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_TOPOLOGY_ZONE, MIGRATED_PLUGINS_ANNOTATION, type CSINode, type PersistentVolume } from './types';

export const AWS_EBS_IN_TREE = 'kubernetes.io/aws-ebs';
export const GCE_PD_IN_TREE = 'kubernetes.io/gce-pd';
export const AZURE_DISK_IN_TREE = 'kubernetes.io/azure-disk';
export const AZURE_FILE_IN_TREE = 'kubernetes.io/azure-file';
export const CINDER_IN_TREE = 'kubernetes.io/cinder';
export const VSPHERE_IN_TREE = 'kubernetes.io/vsphere-volume';
export const PORTWORX_IN_TREE = 'kubernetes.io/portworx-volume';
export const RBD_IN_TREE = 'kubernetes.io/rbd';

export const AWS_EBS_DRIVER = 'ebs.csi.aws.com';
export const GCE_PD_DRIVER = 'pd.csi.storage.gke.io';

/** The source field name on a PV spec / pod volume, its in-tree plugin and its CSI driver. */
interface InTreePlugin {
  field: string;
  inTree: string;
  driver: string;
}

const PLUGINS: readonly InTreePlugin[] = [
  { field: 'awsElasticBlockStore', inTree: AWS_EBS_IN_TREE, driver: AWS_EBS_DRIVER },
  { field: 'gcePersistentDisk', inTree: GCE_PD_IN_TREE, driver: GCE_PD_DRIVER },
  { field: 'azureDisk', inTree: AZURE_DISK_IN_TREE, driver: 'disk.csi.azure.com' },
  { field: 'azureFile', inTree: AZURE_FILE_IN_TREE, driver: 'file.csi.azure.com' },
  { field: 'cinder', inTree: CINDER_IN_TREE, driver: 'cinder.csi.openstack.org' },
  { field: 'vsphereVolume', inTree: VSPHERE_IN_TREE, driver: 'csi.vsphere.vmware.com' },
  { field: 'portworxVolume', inTree: PORTWORX_IN_TREE, driver: 'pxd.portworx.com' },
  { field: 'rbd', inTree: RBD_IN_TREE, driver: 'rbd.csi.ceph.com' },
];

type Source = Record<string, unknown> | undefined;

function pluginForSource(holder: Record<string, unknown> | undefined): InTreePlugin | undefined {
  if (!holder) return undefined;
  for (const p of PLUGINS) if (holder[p.field] !== undefined && holder[p.field] !== null) return p;
  return undefined;
}

/** IsPVMigratable */
export function isPVMigratable(pv: PersistentVolume): boolean {
  return pluginForSource(pv.spec) !== undefined;
}

/** IsInlineMigratable */
export function isInlineMigratable(vol: Volume): boolean {
  return pluginForSource(vol as Record<string, unknown>) !== undefined;
}

/** IsMigratableIntreePluginByName */
export function isMigratableInTreePluginByName(name: string): boolean {
  return PLUGINS.some((p) => p.inTree === name);
}

/** GetInTreePluginNameFromSpec (pv or inline volume). */
export function inTreePluginName(pv: PersistentVolume | null, vol: Volume | null): string | undefined {
  return (pv ? pluginForSource(pv.spec) : pluginForSource(vol as Record<string, unknown> | null ?? undefined))?.inTree;
}

/** GetCSINameFromInTreeName */
export function csiNameFromInTreeName(inTree: string): string | undefined {
  return PLUGINS.find((p) => p.inTree === inTree)?.driver;
}

/** KubernetesVolumeIDToEBSVolumeID: `aws://zone/vol-123` → `vol-123`; a bare id stays. */
function ebsVolumeID(id: string): { ok: true; id: string } | { ok: false; error: string } {
  if (!id.startsWith('aws://')) return { ok: true, id };
  const rest = id.slice('aws://'.length);
  const slash = rest.indexOf('/');
  const path = slash < 0 ? '' : rest.slice(slash);
  const awsID = path.replace(/^\/+|\/+$/g, '');
  if (!/^vol-[^/]*$/.test(awsID)) return { ok: false, error: `Invalid format for AWS volume (${id})` };
  return { ok: true, id: awsID };
}

/** The GCE PD volume handle: zonal, regional (zones joined by "__") or unspecified. */
function gceVolumeHandle(pdName: string, labels: Record<string, string> | undefined): string {
  const zones = (labels?.[LABEL_FAILURE_DOMAIN_BETA_ZONE] || labels?.[LABEL_TOPOLOGY_ZONE] || '').split('__');
  if (zones.length === 1 && zones[0]!.length > 0) return `projects/UNSPECIFIED/zones/${zones[0]}/disks/${pdName}`;
  if (zones.length > 1) {
    const z = zones[0]!;
    const region = z.slice(0, Math.max(0, z.lastIndexOf('-')));
    return `projects/UNSPECIFIED/regions/${region}/disks/${pdName}`;
  }
  return `projects/UNSPECIFIED/zones/UNSPECIFIED/disks/${pdName}`;
}

export type Translated = { ok: true; driver: string; volumeHandle: string } | { ok: false; error: string };

function translate(p: InTreePlugin, src: Source, labels: Record<string, string> | undefined, inline: boolean): Translated {
  const s = src ?? {};
  const str = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : '');
  switch (p.inTree) {
    case AWS_EBS_IN_TREE: {
      const id = ebsVolumeID(str('volumeID'));
      return id.ok ? { ok: true, driver: p.driver, volumeHandle: id.id } : id;
    }
    case GCE_PD_IN_TREE:
      return { ok: true, driver: p.driver, volumeHandle: gceVolumeHandle(str('pdName'), inline ? undefined : labels) };
    case AZURE_DISK_IN_TREE:
      return { ok: true, driver: p.driver, volumeHandle: str('diskURI') };
    case CINDER_IN_TREE:
    case PORTWORX_IN_TREE:
      return { ok: true, driver: p.driver, volumeHandle: str('volumeID') };
    case VSPHERE_IN_TREE:
      return { ok: true, driver: p.driver, volumeHandle: str('volumePath') };
    case AZURE_FILE_IN_TREE:
      return { ok: true, driver: p.driver, volumeHandle: `#${str('secretName')}#${str('shareName')}#` };
    case RBD_IN_TREE:
      return { ok: true, driver: p.driver, volumeHandle: `${str('pool')}-${str('image')}` };
    default:
      return { ok: false, error: `no translation for ${p.inTree}` };
  }
}

/** TranslateInTreePVToCSI, reduced to the CSI driver and volume handle. */
export function translateInTreePV(pv: PersistentVolume): Translated {
  const p = pluginForSource(pv.spec);
  if (!p) return { ok: false, error: 'not an in-tree volume' };
  return translate(p, pv.spec?.[p.field] as Source, pv.metadata.labels, false);
}

/** TranslateInTreeInlineVolumeToCSI, reduced to the CSI driver and volume handle. */
export function translateInTreeInline(vol: Volume): Translated {
  const p = pluginForSource(vol as Record<string, unknown>);
  if (!p) return { ok: false, error: 'not an in-tree volume' };
  return translate(p, vol[p.field] as Source, undefined, true);
}

/**
 * isCSIMigrationOn (nodevolumelimits/utils.go, v1.32): AWS EBS, GCE PD, Azure
 * Disk and Cinder are migrated wherever a CSINode exists; Portworx (gate on by
 * default) and RBD (gate off) need the plugin in the CSINode's migrated-plugins
 * annotation; anything else is not migrated.
 */
export function isCSIMigrationOn(csiNode: CSINode | undefined, pluginName: string): boolean {
  if (!csiNode || pluginName.length === 0) return false;
  switch (pluginName) {
    case AWS_EBS_IN_TREE:
    case GCE_PD_IN_TREE:
    case AZURE_DISK_IN_TREE:
    case CINDER_IN_TREE:
      return true;
    case PORTWORX_IN_TREE:
      break;
    case RBD_IN_TREE:
      return false;
    default:
      return false;
  }
  const mpa = csiNode.metadata.annotations?.[MIGRATED_PLUGINS_ANNOTATION] ?? '';
  return mpa.length > 0 && mpa.split(',').includes(pluginName);
}

// --- attach limit keys ---------------------------------------------------------------

const ATTACHABLE_VOLUMES_PREFIX = 'attachable-volumes-';
const CSI_ATTACH_LIMIT_PREFIX = 'attachable-volumes-csi-';
const RESOURCE_NAME_LENGTH_LIMIT = 63;

/** v1helper.IsAttachableVolumeResourceName */
export function isAttachableVolumeResourceName(name: string): boolean {
  return name.startsWith(ATTACHABLE_VOLUMES_PREFIX);
}

/**
 * GetCSIAttachLimitKey: `attachable-volumes-csi-<driver>`; a key that would
 * reach 63 characters keeps 23 characters of the driver name and the first 16
 * hex digits of the name's SHA-1.
 */
export function csiAttachLimitKey(driverName: string): string {
  if (CSI_ATTACH_LIMIT_PREFIX.length + driverName.length >= RESOURCE_NAME_LENGTH_LIMIT) {
    return CSI_ATTACH_LIMIT_PREFIX + driverName.slice(0, 23) + toHex(sha1(utf8(driverName))).slice(0, 16);
  }
  return CSI_ATTACH_LIMIT_PREFIX + driverName;
}

/** SHA-1 (FIPS 180-4), only for the attach-limit key above. */
export function sha1(data: Uint8Array): Uint8Array {
  const ml = data.length;
  const padded = new Uint8Array((((ml + 8) >> 6) + 1) * 64);
  padded.set(data);
  padded[ml] = 0x80;
  const bits = ml * 8;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(padded.length - 4, bits >>> 0);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Uint32Array(80);
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]!) >>> 0;
      e = d;
      d = c;
      c = ((b << 30) | (b >>> 2)) >>> 0;
      b = a;
      a = t;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
  }
  const out = new Uint8Array(20);
  const ov = new DataView(out.buffer);
  [h0, h1, h2, h3, h4].forEach((h, i) => ov.setUint32(i * 4, h));
  return out;
}
