// persistentVolumeOrderedIndex (pkg/controller/volume/persistentvolume/index.go):
// PVs grouped by their set of access modes. A claim is matched against the
// sets holding every mode it asks for, fewest modes first, so a PV offering
// exactly the requested modes wins over a larger set even when bigger; within
// a set the smallest fitting PV wins (volume.FindMatchingVolume).
import { findMatchingVolume, type Result } from '../../../scheduler/plugins/volumeBinding/binder';
import type { PersistentVolume, PersistentVolumeClaim } from '../../../scheduler/plugins/volumeBinding/types';

/** v1helper.GetAccessModesAsString's order. */
const MODE_ORDER = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];

function modesKey(modes: readonly string[] | undefined): string {
  return MODE_ORDER.filter((m) => (modes ?? []).includes(m)).join(',');
}

/**
 * findByClaim: the best PV for the claim, or null. With delayBinding, only a
 * PV pre-bound to the claim is returned: the scheduler binds the others.
 */
export function findBestMatchForClaim(claim: PersistentVolumeClaim, volumes: Iterable<PersistentVolume>, delayBinding: boolean): Result<PersistentVolume | null> {
  const byModes = new Map<string, { modes: string[]; pvs: PersistentVolume[] }>();
  for (const pv of volumes) {
    const k = modesKey(pv.spec?.accessModes);
    let g = byModes.get(k);
    if (!g) byModes.set(k, (g = { modes: k ? k.split(',') : [], pvs: [] }));
    g.pvs.push(pv);
  }
  const wanted = claim.spec?.accessModes ?? [];
  // allPossibleMatchingAccessModes: every indexed set that contains all requested modes, smallest first.
  const sets = [...byModes.entries()]
    .filter(([, g]) => wanted.every((m) => g.modes.includes(m)))
    .sort(([ka, a], [kb, b]) => a.modes.length - b.modes.length || (ka < kb ? -1 : ka > kb ? 1 : 0));
  for (const [, g] of sets) {
    // Name order: the cache's listing order, so ties between equal PVs resolve the same way each run.
    const pvs = g.pvs.sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const r = findMatchingVolume(claim, pvs, undefined, new Set(), null, { delayBinding });
    if (!r.ok || r.value) return r;
  }
  return { ok: true, value: null };
}
