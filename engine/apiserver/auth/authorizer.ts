// kube-apiserver's authorizer chain for `--authorization-mode=Node,RBAC`
// (pkg/kubeapiserver/authorizer/config.go): the system:masters short-circuit
// first, then Node, then RBAC, combined as union.go combines them — the first
// Allow or Deny wins; otherwise NoOpinion with every reason, one per line.
import { aggregateMessage } from '../../apimachinery/fieldErrors';
import type { AuthorizationResult, ClusterReader, UserInfo } from '../types';
import { nodeAuthorize, type AttributesWithSelectors } from './node';
import { rbacAuthorize, rbacRulesFor } from './rbac';
import { SYSTEM_PRIVILEGED_GROUP, nodeIdentity } from './user';

export type AuthorizerName = 'PrivilegedGroups' | 'Node' | 'RBAC';

export interface AuthorizeResult extends AuthorizationResult {
  /** Which authorizer decided; absent when none had an opinion. */
  authorizer?: AuthorizerName;
}

/** authorizerfactory.NewPrivilegedGroups(system:masters): Allow with no reason. */
function privilegedGroups(attrs: AttributesWithSelectors): AuthorizationResult {
  return attrs.user.groups.includes(SYSTEM_PRIVILEGED_GROUP) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' };
}

export function authorize(attrs: AttributesWithSelectors, cluster: ClusterReader): AuthorizeResult {
  const chain: [AuthorizerName, () => AuthorizationResult][] = [
    ['PrivilegedGroups', () => privilegedGroups(attrs)],
    ['Node', () => nodeAuthorize(attrs, cluster)],
    ['RBAC', () => rbacAuthorize(attrs, cluster)],
  ];
  const reasons: string[] = [];
  for (const [name, run] of chain) {
    const r = run();
    if (r.reason) reasons.push(r.reason);
    if (r.decision !== 'NoOpinion') return { decision: r.decision, reason: r.reason, authorizer: name };
  }
  return { decision: 'NoOpinion', reason: reasons.join('\n') };
}

/** authorizer.ResourceRuleInfo as SelfSubjectRulesReview prints it. */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

/** authorizationv1.SubjectRulesReviewStatus. */
export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

/**
 * The union rule resolver behind SelfSubjectRulesReview and `kubectl auth can-i --list`:
 * the Node authorizer cannot enumerate a node's rights (incomplete, with an error),
 * RBAC lists every rule bound to the user in the namespace.
 */
export function rulesFor(user: UserInfo, namespace: string, cluster: ClusterReader): SubjectRulesReviewStatus {
  const errors: string[] = [];
  let incomplete = false;
  if (nodeIdentity(user).isNode) {
    incomplete = true;
    errors.push('node authorizer does not support user rule resolution');
  }
  const rbac = rbacRulesFor(user, namespace, cluster);
  errors.push(...rbac.errors);
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const r of rbac.rules) {
    if (r.resources && r.resources.length) {
      const rr: ResourceRule = { verbs: [...r.verbs] };
      if (r.apiGroups?.length) rr.apiGroups = [...r.apiGroups];
      rr.resources = [...r.resources];
      if (r.resourceNames?.length) rr.resourceNames = [...r.resourceNames];
      resourceRules.push(rr);
    }
    if (r.nonResourceURLs && r.nonResourceURLs.length) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
  }
  const out: SubjectRulesReviewStatus = { resourceRules, nonResourceRules, incomplete };
  if (errors.length) out.evaluationError = aggregateMessage(errors);
  return out;
}
