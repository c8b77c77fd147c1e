// What the API server records of each request, stage by stage: the
// observability behind the apiserver panel and GET /playground/v1/requests.
import type { JsonValue } from '../../apimachinery/types';

export type StageKind = 'authentication' | 'impersonation' | 'authorization' | 'limit' | 'decode' | 'mutating' | 'validation' | 'validating' | 'storage' | 'proxy' | 'response';

export interface StageRecord {
  kind: StageKind;
  /** Plugin or step name: `NamespaceLifecycle`, `RBAC`, `etcd`. */
  name: string;
  decision: 'allowed' | 'denied' | 'skipped' | 'ok' | 'error';
  /** Why (authorizer reason, error message). */
  message?: string;
  /** Mutating plugins: the JSON patch they applied (RFC 6902). */
  patch?: JsonValue[];
  warnings?: string[];
  /** Virtual ms. */
  startedAt: number;
  endedAt: number;
}

export interface RequestRecord {
  id: number;
  /** Virtual ms when the server received it. */
  at: number;
  /** Which actor sent it (kubectl-0, kube-scheduler-0...). */
  client: string;
  user: string;
  groups: string[];
  verb: string;
  method: string;
  path: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  stages: StageRecord[];
  /** HTTP status code of the answer (0 while in flight; 200 for a watch that started). */
  code: number;
  reason?: string;
  message?: string;
  /** etcd key written or read, and the revision of the write. */
  etcdKey?: string;
  revision?: number;
  doneAt?: number;
  dryRun?: boolean;
  warnings?: string[];
}
