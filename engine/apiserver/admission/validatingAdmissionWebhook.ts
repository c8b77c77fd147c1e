// ValidatingAdmissionWebhook (admission/plugin/webhook/validating/dispatcher.go):
// every matching validating webhook is called (upstream in parallel); the
// first refusal or call error, in configuration order, fails the request.
import type { Status } from '../../apimachinery/types';
import type { AdmissionPlugin } from '../types';
import { allow, deny } from './errors';
import { callErrorStatus, callWebhook, dryRunUnsupported, failurePolicyOf, listWebhooks, shouldCallHook } from './webhook';

export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: 'ValidatingAdmissionWebhook',
  handles: () => true,
  validate(a, cluster) {
    const warnings: string[] = [];
    const audit: Record<string, string> = {};
    const errors: Status[] = [];
    for (const ref of listWebhooks(cluster, 'validatingwebhookconfigurations')) {
      const decision = shouldCallHook(ref, a, cluster);
      if (decision.error) {
        errors.push(decision.error);
        continue;
      }
      if (!decision.call) continue;
      const dry = dryRunUnsupported(ref, a);
      if (dry) {
        errors.push(dry);
        continue;
      }
      const res = callWebhook(ref, cluster);
      if (res.type === 'callError') {
        if (failurePolicyOf(ref.webhook) === 'Ignore') {
          audit[`failed-open.validation.webhook.admission.k8s.io/round_0_index_${ref.index}`] = ref.name;
          continue;
        }
        errors.push(callErrorStatus(ref.name, res.reason));
        continue;
      }
      warnings.push(...res.warnings);
      if (res.type === 'denied') errors.push(res.status);
    }
    if (errors.length) return deny(errors[0]!, warnings);
    return allow(warnings, audit);
  },
};
