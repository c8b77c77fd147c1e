// Pod admission (pkg/kubelet/lifecycle/predicate.go canAdmitPod): the pods
// count, then cpu, memory, ephemeral-storage (the scheduler's Fit order).
import type { Pod } from '../../scheduler/framework/api';
import { podRequests, quantityNumber } from '../../scheduler/framework/resources';
import type { Kubelet } from '../kubelet';

export function fits(k: Kubelet, pod: Pod, uid: string): { reason: string; message: string } | null {
  const c = k.config.capacity;
  const active = [...k.workers.values()].filter((w) => w.uid !== uid && w.stage !== 'done' && !w.rejected);
  const insufficient = (name: string, requested: number, used: number, capacity: number) => ({
    reason: `OutOf${name}`,
    message: `Node didn't have enough resource: ${name}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  });
  const maxPods = quantityNumber(c.pods, false);
  if (active.length + 1 > maxPods)
    return {
      reason: 'OutOfpods',
      message: `Node didn't have enough resource: pods, requested: 1, used: ${active.length}, capacity: ${maxPods}`,
    };
  const req = podRequests(pod);
  const used = { cpu: 0, memory: 0, storage: 0 };
  for (const w of active) {
    const r = podRequests(w.pod);
    used.cpu += r.milliCPU;
    used.memory += r.memory;
    used.storage += r.ephemeralStorage;
  }
  const cpu = quantityNumber(c.cpu, true);
  const mem = quantityNumber(c.memory, false);
  const eph = quantityNumber(c['ephemeral-storage'], false);
  if (req.milliCPU > 0 && used.cpu + req.milliCPU > cpu) return insufficient('cpu', req.milliCPU, used.cpu, cpu);
  if (req.memory > 0 && used.memory + req.memory > mem) return insufficient('memory', req.memory, used.memory, mem);
  if (req.ephemeralStorage > 0 && used.storage + req.ephemeralStorage > eph) return insufficient('ephemeral-storage', req.ephemeralStorage, used.storage, eph);
  return null;
}
