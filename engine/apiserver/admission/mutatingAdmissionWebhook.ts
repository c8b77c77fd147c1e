// MutatingAdmissionWebhook (admission/plugin/webhook/mutating/dispatcher.go):
// calls each matching mutating webhook in turn, applies the JSON patch it
// returns to the object, and stops at the first refusal. A call error fails
// the request (500) under failurePolicy Fail and is skipped under Ignore.
// reinvocationPolicy IfNeeded is not simulated: each webhook runs once.
import { status } from '../../apimachinery/status';
import type { AdmissionPlugin } from '../types';
import { allow, deny } from './errors';
import { isRec, replaceContents } from './json';
import { applyJsonPatch } from '../../apimachinery/patch/jsonPatch';
import type { JsonValue } from '../../apimachinery/types';
import { callErrorStatus, callWebhook, dryRunUnsupported, failurePolicyOf, listWebhooks, shouldCallHook } from './webhook';

export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: 'MutatingAdmissionWebhook',
  handles: () => true,
  // Only a configured webhook can change the object.
  mayMutate: (_a, cluster) => cluster.list('admissionregistration.k8s.io', 'mutatingwebhookconfigurations').length > 0,
  admit(a, cluster) {
    const warnings: string[] = [];
    const audit: Record<string, string> = {};
    for (const ref of listWebhooks(cluster, 'mutatingwebhookconfigurations')) {
      const decision = shouldCallHook(ref, a, cluster);
      if (decision.error) return deny(decision.error, warnings);
      if (!decision.call) continue;
      const dry = dryRunUnsupported(ref, a);
      if (dry) return deny(dry, warnings);
      const res = callWebhook(ref, cluster);
      if (res.type === 'callError') {
        if (failurePolicyOf(ref.webhook) === 'Ignore') {
          audit[`failed-open.mutation.webhook.admission.k8s.io/round_0_index_${ref.index}`] = ref.name;
          continue;
        }
        return deny(callErrorStatus(ref.name, res.reason), warnings);
      }
      warnings.push(...res.warnings);
      if (res.type === 'denied') return deny(res.status, warnings);
      let mutated = false;
      if (res.patch !== undefined && a.object) {
        // Upstream answers a patch that does not apply with an internal error, not a 422.
        const patched = applyJsonPatch(a.object as unknown as JsonValue, res.patch as JsonValue);
        if (!patched.ok) return deny(status.internal(patched.error), warnings);
        if (!isRec(patched.value)) return deny(status.internal('patched object is not an object'), warnings);
        mutated = JSON.stringify(patched.value) !== JSON.stringify(a.object);
        replaceContents(a.object, patched.value);
      }
      audit[`mutation.webhook.admission.k8s.io/round_0_index_${ref.index}`] = JSON.stringify({
        configuration: ref.configuration.metadata.name ?? '',
        webhook: ref.name,
        mutated,
      });
    }
    return allow(warnings, audit);
  },
};
