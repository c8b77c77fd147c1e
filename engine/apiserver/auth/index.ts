// Authentication, impersonation and authorization for the simulated
// kube-apiserver: who is asking, as whom, and may they.
export {
  CLIENT_CERT_HEADER,
  authenticate,
  authenticateToken,
  bearerToken,
  certificateSubject,
  componentUsers,
  defaultAuthnConfig,
  parseCertificateSubject,
  TokenCache,
  type AuthnConfig,
  type AuthnResult,
  type Authenticator,
  type Headers,
  type StaticUser,
} from './authn';
export {
  DEFAULT_ISSUER,
  LEGACY_ISSUER,
  WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
  defaultServiceAccountTokenConfig,
  issueBoundToken,
  issueLegacyToken,
  serviceAccountSigningKey,
  validateServiceAccountToken,
  type BoundObject,
  type IssuedToken,
  type ServiceAccountTokenConfig,
  type TokenRequestInput,
} from './serviceAccountToken';
export { impersonate, buildImpersonationRequests, type ImpersonationRequest, type ImpersonationResult } from './impersonation';
export { authorize, rulesFor, type AuthorizeResult, type AuthorizerName, type NonResourceRule, type ResourceRule, type SubjectRulesReviewStatus } from './authorizer';
export { nodeAuthorize, NODE_LEASE_NAMESPACE, type AttributesWithSelectors } from './node';
export { nodeRestrictionPlugin, nodeRestrictionAdmit } from './nodeRestriction';
export { rbacAuthorize, rbacRulesFor, ruleAllows, rulesAllow } from './rbac';
export { aggregateClusterRoles, aggregatedRules, labelSelectorMatches } from './aggregation';
export { bootstrapPolicy, type BootstrapPolicyOptions } from './bootstrap';
export { forbiddenMessage, forbiddenStatus, forbiddenText } from './forbidden';
export {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectReview,
  selfSubjectRulesReview,
  subjectAccessReview,
  tokenReview,
  review,
  type ReviewContext,
  type ReviewResult,
} from './reviews';
export { tokenRequest, type TokenRequestContext } from './tokenRequest';
export type { PolicyRule, Subject, RoleRef } from './rbacTypes';
export * as users from './user';
