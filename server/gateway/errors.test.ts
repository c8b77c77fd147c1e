import { describe, expect, it } from 'vitest';
import { ErrCompacted, ErrDuplicateKey, ErrLeaseExist, ErrLeaseNotFound, ErrNoLeader, ErrTooManyRequests } from '../../engine/etcd/api/errors';
import { ErrDeadlineExceeded } from '../../engine/etcd/client/client';
import { badRequest, renderEtcdError } from './errors';
import { streamErrorChunk } from './streams';

describe('error rendering (grpc-gateway v1.16 as in etcd 3.5)', () => {
  it('maps gRPC codes to HTTP statuses', () => {
    expect(renderEtcdError(ErrCompacted).status).toBe(400); // OutOfRange
    expect(renderEtcdError(ErrLeaseNotFound).status).toBe(404);
    expect(renderEtcdError(ErrLeaseExist).status).toBe(400); // FailedPrecondition: 400, not 412 (etcd 3.4 said 412)
    expect(renderEtcdError(ErrNoLeader).status).toBe(503);
    expect(renderEtcdError(ErrTooManyRequests).status).toBe(429);
    expect(renderEtcdError(ErrDeadlineExceeded).status).toBe(504);
  });

  it('writes error, code, message in declaration order', () => {
    const e = renderEtcdError(ErrDuplicateKey);
    expect(JSON.stringify(e.body)).toBe(
      '{"error":"etcdserver: duplicate key given in txn request","code":3,"message":"etcdserver: duplicate key given in txn request"}',
    );
  });

  it('renders decode failures as InvalidArgument', () => {
    expect(badRequest('unexpected EOF')).toEqual({ status: 400, body: { error: 'unexpected EOF', code: 3, message: 'unexpected EOF' } });
  });

  it('renders in-stream errors as runtime.StreamError', () => {
    expect(streamErrorChunk('Unavailable', 'etcdserver: no leader')).toEqual({
      error: { grpc_code: 14, http_code: 503, message: 'etcdserver: no leader', http_status: 'Service Unavailable' },
    });
  });
});
