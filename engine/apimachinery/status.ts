// Status builders with upstream's reasons, codes and messages
// (k8s.io/apimachinery/pkg/api/errors/errors.go). A failed request is a value
// of this type, never an exception.
import { aggregateMessage, errorBody, errorString, type FieldError } from './fieldErrors';
import type { Status, StatusCause, StatusDetails } from './types';

/** A resource qualified by its group, printed as upstream's GroupResource.String(). */
export interface GroupResource {
  group: string;
  resource: string;
}
export interface GroupKind {
  group: string;
  kind: string;
}

export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
export function groupKindString(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

function failure(code: number, reason: string, message: string, details?: StatusDetails): Status {
  const st: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) st.details = details;
  return st;
}

function details(gr: GroupResource, name?: string, extra: Partial<StatusDetails> = {}): StatusDetails {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return { ...d, ...extra };
}

export const status = {
  success(extra: Partial<StatusDetails> & { gr?: GroupResource; name?: string } = {}): Status {
    const st: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
    if (extra.gr) st.details = details(extra.gr, extra.name, extra.uid ? { uid: extra.uid } : {});
    return st;
  },
  notFound(gr: GroupResource, name: string): Status {
    return failure(404, 'NotFound', `${groupResourceString(gr)} "${name}" not found`, details(gr, name));
  },
  alreadyExists(gr: GroupResource, name: string): Status {
    return failure(409, 'AlreadyExists', `${groupResourceString(gr)} "${name}" already exists`, details(gr, name));
  },
  /** NewGenerateNameConflict: a generated name collided. */
  generateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): Status {
    return failure(
      409,
      'AlreadyExists',
      `${groupResourceString(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
      details(gr, name, { retryAfterSeconds }),
    );
  },
  conflict(gr: GroupResource, name: string, reason: string): Status {
    return failure(409, 'Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} "${name}": ${reason}`, details(gr, name));
  },
  /** The usual optimistic-concurrency conflict (registry.OptimisticLockErrorMsg). */
  optimisticLock(gr: GroupResource, name: string): Status {
    return status.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): Status {
    const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
    const d: StatusDetails = { name, ...(gk.group ? { group: gk.group } : {}), kind: gk.kind, causes };
    const msg = errs.length === 0 ? `${groupKindString(gk)} "${name}" is invalid` : `${groupKindString(gk)} "${name}" is invalid: ${aggregateMessage(errs.map(errorString))}`;
    return failure(422, 'Invalid', msg, d);
  },
  /** `pods "x" is forbidden: <why>`; without a name, `pods is forbidden: <why>`. */
  forbidden(gr: GroupResource, name: string, why: string): Status {
    const what = name ? `${groupResourceString(gr)} "${name}"` : groupResourceString(gr);
    return failure(403, 'Forbidden', `${what} is forbidden: ${why}`, details(gr, name));
  },
  /** A forbidden request to a non-resource URL (`forbidden: User "x" cannot get path "/foo"`). */
  forbiddenPath(why: string): Status {
    return failure(403, 'Forbidden', `forbidden: ${why}`, {});
  },
  unauthorized(message = 'Unauthorized'): Status {
    return failure(401, 'Unauthorized', message);
  },
  badRequest(message: string): Status {
    return failure(400, 'BadRequest', message);
  },
  methodNotSupported(gr: GroupResource, action: string): Status {
    return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${groupResourceString(gr)}"`, details(gr));
  },
  notAcceptable(message: string): Status {
    return failure(406, 'NotAcceptable', message);
  },
  unsupportedMediaType(message: string): Status {
    return failure(415, 'UnsupportedMediaType', message);
  },
  /** 410 Expired: a watch or list asked for a resourceVersion that was compacted. */
  resourceExpired(message: string): Status {
    return failure(410, 'Expired', message);
  },
  gone(message: string): Status {
    return failure(410, 'Gone', message);
  },
  tooManyRequests(message: string, retryAfterSeconds: number): Status {
    return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
  },
  requestEntityTooLarge(message: string): Status {
    return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
  },
  internal(message: string, gr?: GroupResource, name?: string): Status {
    return failure(500, 'InternalError', `Internal error occurred: ${message}`, {
      ...(gr ? details(gr, name) : {}),
      causes: [{ message }],
    });
  },
  /**
   * A storage error the apiserver passes through without a reason, e.g. etcd's
   * `etcdserver: request is too large` (kubectl prints `Error from server: ...`).
   */
  storage(message: string): Status {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
  },
  serviceUnavailable(message: string): Status {
    return failure(503, 'ServiceUnavailable', message);
  },
  timeout(message: string, retryAfterSeconds: number): Status {
    return failure(504, 'Timeout', message, { retryAfterSeconds });
  },
};
