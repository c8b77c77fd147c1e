// Toleration matching as k8s.io/api core/v1 toleration.go and
// pkg/apis/core/v1/helper GetMatchingTolerations, and the taint eviction
// controller's getMinTolerationTime.
import type { Taint } from '../nodelifecycle/taints';

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | '';
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Whether every taint is tolerated, and the first toleration used for each. */
export function getMatchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): { all: boolean; used: Toleration[] } {
  if (taints.length === 0) return { all: true, used: [] };
  if (tolerations.length === 0) return { all: false, used: [] };
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (!t) return { all: false, used: [] };
    used.push(t);
  }
  return { all: true, used };
}

/** The shortest tolerationSeconds in ms: 0 when none or any ≤ 0, -1 (forever) when none is bounded. */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}
