// Contracts shared by the API server's parts: who is asking (UserInfo), what
// they ask (RequestAttributes), what the cluster holds (ClusterReader, fed by
// the watch cache), and what admission plugins see and answer.
import type { KObject, Status } from '../apimachinery/types';
import type { ResourceInfo } from './registry/resources';

/** user.Info (k8s.io/apiserver/pkg/authentication/user). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** An HTTP request as the API server receives it (bodies are text: JSON or YAML). */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** Path without the query: `/api/v1/namespaces/default/pods`. */
  path: string;
  /** Query parameters; repeated ones keep every value. */
  query: Record<string, string | string[]>;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Text (JSON or YAML); base64 when `binaryBody` is set (protobuf). */
  body?: string;
  binaryBody?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text (or plain text for logs, /healthz); base64 when `binary` is set. */
  body: string;
  /** The body is bytes (protobuf), base64-encoded in `body`. */
  binary?: boolean;
}

/** authorizer.Attributes (k8s.io/apiserver/pkg/authorization/authorizer). */
export interface AuthorizationAttributes {
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; or impersonate, bind, escalate, use... */
  verb: string;
  isResourceRequest: boolean;
  /** Non-resource requests: the URL path (`/healthz`, `/api`). */
  path?: string;
  apiGroup?: string;
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export type AuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: AuthorizationDecision;
  /** Why: `RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"`. */
  reason: string;
}

/** Read-only view of stored objects, served from the watch cache. */
export interface ClusterReader {
  get(group: string, resource: string, namespace: string | undefined, name: string): KObject | undefined;
  /** All objects of a resource, in one namespace or (undefined) every namespace, in key order. */
  list(group: string, resource: string, namespace?: string): readonly KObject[];
}

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** admission.Attributes. `object` is the object being admitted; mutating plugins change it in place. */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  resource: ResourceInfo;
  subresource: string;
  namespace: string;
  name: string;
  kind: { group: string; version: string; kind: string };
  object: KObject | null;
  oldObject: KObject | null;
  userInfo: UserInfo;
  dryRun: boolean;
  /** CreateOptions / UpdateOptions / DeleteOptions as sent. */
  options: Record<string, unknown>;
  /** Virtual time in ms, for timestamps a plugin writes. */
  now: number;
}

/** What one admission plugin decided. Mutations are made on attrs.object; the core records them as a JSON patch. */
export type AdmissionVerdict =
  | {
      allowed: true;
      warnings?: string[];
      auditAnnotations?: Record<string, string>;
      /** Other objects to write with the request's object, in its transaction, each at its resourceVersion (ResourceQuota's charged status.used). */
      storageWrites?: KObject[];
    }
  | { allowed: false; status: Status; warnings?: string[] };

export interface AdmissionPlugin {
  /** Upstream's plugin name: NamespaceLifecycle, LimitRanger, ... */
  readonly name: string;
  /** Does it handle this request at all (upstream's Handles(operation))? */
  handles(attrs: AdmissionAttributes): boolean;
  /** Mutating phase (admission.MutationInterface); absent for validate-only plugins. */
  admit?(attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionVerdict;
  /**
   * Could admit() change attrs.object for these attributes? A cheap pre-check of
   * admit's own early returns, so the chain need not look for changes after a
   * step that cannot make any; absent means it might.
   */
  mayMutate?(attrs: AdmissionAttributes, cluster: ClusterReader): boolean;
  /** Validating phase (admission.ValidationInterface); absent for mutate-only plugins. */
  validate?(attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionVerdict;
}
