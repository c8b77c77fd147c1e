import { describe, expect, it } from 'vitest';
import { base64ToBinary, binaryToBase64, binaryToUtf8, isBinaryString, utf8ToBinary } from './bytes';
import {
  ErrCompacted,
  ErrDeadlineExceeded,
  ErrEmptyKey,
  ErrLeaseProvided,
  ErrNoLeader,
  ErrNotLeader,
  ErrRequestTooLarge,
  ErrTimeout,
  ErrValueProvided,
  GrpcCode,
  httpStatusOf,
  isEtcdError,
} from './errors';
import { MaxRequestBytes, requestSize } from './limits';
import { checkProposal, checkPutRequest, checkRangeRequest } from './validate';

describe('binary strings', () => {
  it('round-trip UTF-8 and base64', () => {
    const text = 'héllo ✓ 𝄞';
    const bin = utf8ToBinary(text);
    expect(isBinaryString(bin)).toBe(true);
    expect(bin.length).toBe(15);
    expect(binaryToUtf8(bin)).toBe(text);
    expect(binaryToBase64('foo')).toBe('Zm9v');
    expect(binaryToBase64('\x00\xff')).toBe('AP8=');
    expect(base64ToBinary('AP8=')).toBe('\x00\xff');
    expect(base64ToBinary('AP8')).toBe('\x00\xff');
    expect(base64ToBinary('Zm9vYg==')).toBe('foob');
    expect(base64ToBinary('not base64!')).toBeNull();
    expect(binaryToUtf8('\xff')).toBe('\ufffd');
    for (let n = 0; n < 40; n++) {
      const s = Array.from({ length: n }, (_, i) => String.fromCharCode((i * 97 + n) & 255)).join('');
      expect(base64ToBinary(binaryToBase64(s))).toBe(s);
    }
  });
});

describe('errors', () => {
  it('carry upstream texts, gRPC codes and gateway HTTP statuses', () => {
    expect(ErrCompacted).toMatchObject({ code: 'OutOfRange', codeNumber: 11 });
    expect(httpStatusOf(ErrCompacted)).toBe(400);
    expect(httpStatusOf(ErrNoLeader)).toBe(503);
    expect(httpStatusOf(ErrNotLeader)).toBe(400);
    expect(ErrTimeout.message).toBe('etcdserver: request timed out');
    expect(httpStatusOf(ErrDeadlineExceeded)).toBe(504);
    expect(GrpcCode.Unavailable).toBe(14);
    expect(isEtcdError(ErrTimeout)).toBe(true);
    expect(isEtcdError({ header: {} })).toBe(false);
  });
});

describe('request checks', () => {
  it('v3rpc put/range checks', () => {
    expect(checkRangeRequest({ key: '' })).toBe(ErrEmptyKey);
    expect(checkPutRequest({ key: 'a', value: 'x', ignoreValue: true })).toBe(ErrValueProvided);
    expect(checkPutRequest({ key: 'a', lease: 3, ignoreLease: true })).toBe(ErrLeaseProvided);
    expect(checkPutRequest({ key: 'a', value: 'x' })).toBeNull();
  });

  it('the size limit is the marshalled InternalRaftRequest against 1.5 MiB', () => {
    expect(requestSize({ header: { id: 1 }, put: { key: 'foo', value: 'bar' } })).toBe(17);
    expect(MaxRequestBytes).toBe(1572864);
    const big = (n: number) => ({ header: { id: 1 }, put: { key: 'foo', value: 'x'.repeat(n) } });
    expect(checkProposal(big(MaxRequestBytes - 20))).toBeNull();
    expect(checkProposal(big(MaxRequestBytes - 17))).toBe(ErrRequestTooLarge);
    expect(requestSize(big(MaxRequestBytes - 18))).toBe(MaxRequestBytes);
  });
});
