// etcd's client-visible errors as values (api/v3rpc/rpctypes/error.go, v3.5),
// plus the gRPC -> HTTP status mapping of the grpc-gateway etcd v3.5 embeds
// (grpc-gateway v1 runtime.HTTPStatusFromCode).
//
// The messages are what a client sees on the wire. Internal errors are mapped
// to these by v3rpc/util.go togRPCError (e.g. mvcc.ErrCompacted becomes
// "etcdserver: mvcc: required revision has been compacted"); the applier here
// returns the mapped values directly.

export type GrpcCodeName =
  | 'OK'
  | 'Canceled'
  | 'Unknown'
  | 'InvalidArgument'
  | 'DeadlineExceeded'
  | 'NotFound'
  | 'AlreadyExists'
  | 'PermissionDenied'
  | 'ResourceExhausted'
  | 'FailedPrecondition'
  | 'Aborted'
  | 'OutOfRange'
  | 'Unimplemented'
  | 'Internal'
  | 'Unavailable'
  | 'DataLoss'
  | 'Unauthenticated';

/** google.golang.org/grpc/codes numbers. */
export const GrpcCode: Readonly<Record<GrpcCodeName, number>> = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
};

/** grpc-gateway v1 runtime.HTTPStatusFromCode. */
export const HttpStatusFromGrpcCode: Readonly<Record<GrpcCodeName, number>> = {
  OK: 200,
  Canceled: 408,
  Unknown: 500,
  InvalidArgument: 400,
  DeadlineExceeded: 504,
  NotFound: 404,
  AlreadyExists: 409,
  PermissionDenied: 403,
  Unauthenticated: 401,
  ResourceExhausted: 429,
  // Deliberately not 412 (a comment in grpc-gateway says so).
  FailedPrecondition: 400,
  Aborted: 409,
  OutOfRange: 400,
  Unimplemented: 501,
  Internal: 500,
  Unavailable: 503,
  DataLoss: 500,
};

export interface EtcdError {
  type: 'EtcdError';
  code: GrpcCodeName;
  /** The numeric gRPC code (GrpcCode[code]). */
  codeNumber: number;
  message: string;
}

function err(code: GrpcCodeName, message: string): EtcdError {
  return Object.freeze({ type: 'EtcdError', code, codeNumber: GrpcCode[code], message });
}

export function isEtcdError(x: unknown): x is EtcdError {
  return typeof x === 'object' && x !== null && (x as { type?: unknown }).type === 'EtcdError';
}

/** The HTTP status the gateway answers with for this error. */
export function httpStatusOf(e: EtcdError): number {
  return HttpStatusFromGrpcCode[e.code];
}

// Server-side errors, named as in rpctypes without the GRPC infix.
export const ErrEmptyKey = err('InvalidArgument', 'etcdserver: key is not provided');
export const ErrKeyNotFound = err('InvalidArgument', 'etcdserver: key not found');
export const ErrValueProvided = err('InvalidArgument', 'etcdserver: value is provided');
export const ErrLeaseProvided = err('InvalidArgument', 'etcdserver: lease is provided');
export const ErrTooManyOps = err('InvalidArgument', 'etcdserver: too many operations in txn request');
export const ErrDuplicateKey = err('InvalidArgument', 'etcdserver: duplicate key given in txn request');
export const ErrCompacted = err('OutOfRange', 'etcdserver: mvcc: required revision has been compacted');
export const ErrFutureRev = err('OutOfRange', 'etcdserver: mvcc: required revision is a future revision');
export const ErrNoSpace = err('ResourceExhausted', 'etcdserver: mvcc: database space exceeded');

export const ErrLeaseNotFound = err('NotFound', 'etcdserver: requested lease not found');
export const ErrLeaseExist = err('FailedPrecondition', 'etcdserver: lease already exists');
export const ErrLeaseTTLTooLarge = err('OutOfRange', 'etcdserver: too large lease TTL');

export const ErrMemberExist = err('FailedPrecondition', 'etcdserver: member ID already exist');
export const ErrPeerURLExist = err('FailedPrecondition', 'etcdserver: Peer URLs already exists');
export const ErrMemberNotEnoughStarted = err(
  'FailedPrecondition',
  'etcdserver: re-configuration failed due to not enough started members',
);
export const ErrMemberBadURLs = err('InvalidArgument', 'etcdserver: given member URLs are invalid');
export const ErrMemberNotFound = err('NotFound', 'etcdserver: member not found');
export const ErrMemberNotLearner = err('FailedPrecondition', 'etcdserver: can only promote a learner member');
export const ErrLearnerNotReady = err(
  'FailedPrecondition',
  'etcdserver: can only promote a learner member which is in sync with leader',
);
export const ErrTooManyLearners = err('FailedPrecondition', 'etcdserver: too many learner members in cluster');

export const ErrRequestTooLarge = err('InvalidArgument', 'etcdserver: request is too large');
export const ErrTooManyRequests = err('ResourceExhausted', 'etcdserver: too many requests');

export const ErrRootUserNotExist = err('FailedPrecondition', 'etcdserver: root user does not exist');
export const ErrRootRoleNotExist = err('FailedPrecondition', 'etcdserver: root user does not have root role');
export const ErrUserAlreadyExist = err('FailedPrecondition', 'etcdserver: user name already exists');
export const ErrUserEmpty = err('InvalidArgument', 'etcdserver: user name is empty');
export const ErrUserNotFound = err('FailedPrecondition', 'etcdserver: user name not found');
export const ErrRoleAlreadyExist = err('FailedPrecondition', 'etcdserver: role name already exists');
export const ErrRoleNotFound = err('FailedPrecondition', 'etcdserver: role name not found');
export const ErrRoleEmpty = err('InvalidArgument', 'etcdserver: role name is empty');
export const ErrAuthFailed = err('InvalidArgument', 'etcdserver: authentication failed, invalid user ID or password');
export const ErrPermissionDenied = err('PermissionDenied', 'etcdserver: permission denied');
export const ErrRoleNotGranted = err('FailedPrecondition', 'etcdserver: role is not granted to the user');
export const ErrPermissionNotGranted = err('FailedPrecondition', 'etcdserver: permission is not granted to the role');
export const ErrAuthNotEnabled = err('FailedPrecondition', 'etcdserver: authentication is not enabled');
export const ErrInvalidAuthToken = err('Unauthenticated', 'etcdserver: invalid auth token');
export const ErrInvalidAuthMgmt = err('InvalidArgument', 'etcdserver: invalid auth management');

export const ErrNoLeader = err('Unavailable', 'etcdserver: no leader');
export const ErrNotLeader = err('FailedPrecondition', 'etcdserver: not leader');
export const ErrLeaderChanged = err('Unavailable', 'etcdserver: leader changed');
export const ErrNotCapable = err('Unavailable', 'etcdserver: not capable');
export const ErrStopped = err('Unavailable', 'etcdserver: server stopped');
export const ErrTimeout = err('Unavailable', 'etcdserver: request timed out');
export const ErrTimeoutDueToLeaderFail = err(
  'Unavailable',
  'etcdserver: request timed out, possibly due to previous leader failure',
);
export const ErrTimeoutDueToConnectionLost = err(
  'Unavailable',
  'etcdserver: request timed out, possibly due to connection lost',
);
export const ErrUnhealthy = err('Unavailable', 'etcdserver: unhealthy cluster');
export const ErrCorrupt = err('DataLoss', 'etcdserver: corrupt cluster');
export const ErrNotSupportedForLearner = err('Unavailable', 'etcdserver: rpc not supported for learner');
export const ErrBadLeaderTransferee = err('FailedPrecondition', 'etcdserver: bad leader transferee');

/** A client's own deadline or cancellation (gRPC status from the context error). */
export const ErrDeadlineExceeded = err('DeadlineExceeded', 'context deadline exceeded');
export const ErrCanceled = err('Canceled', 'context canceled');

/**
 * Texts of the mvcc package errors, seen unprefixed where mvcc errors reach a
 * client without togRPCError (watch create/cancel responses' cancel_reason).
 */
export const MvccErrorText = {
  compacted: 'mvcc: required revision has been compacted',
  futureRev: 'mvcc: required revision is a future revision',
  watcherNotExist: 'mvcc: watcher does not exist',
  emptyWatcherRange: 'mvcc: watcher range is empty',
  watcherDuplicateId: 'mvcc: duplicate watch ID provided on the WatchStream',
} as const;
