// Errors as etcd v3.5's grpc-gateway (v1.16, DefaultHTTPError) renders them:
// the HTTP status from the gRPC code (runtime.HTTPStatusFromCode) and the body
// of grpc.gateway.runtime.Error marshalled by jsonpb in declaration order:
// {"error":msg,"code":n,"message":msg}. (etcd 3.4's older gateway wrote the
// same three fields as error, message, code, and answered FailedPrecondition
// with 412 instead of 400.)
import { GrpcCode, HttpStatusFromGrpcCode, type EtcdError, type GrpcCodeName } from '../../engine/etcd/api/errors';

export interface GatewayError {
  status: number;
  body: { error: string; code: number; message: string };
}

export function renderGrpcError(code: GrpcCodeName, message: string): GatewayError {
  return { status: HttpStatusFromGrpcCode[code], body: { error: message, code: GrpcCode[code], message } };
}

export function renderEtcdError(e: EtcdError): GatewayError {
  return renderGrpcError(e.code, e.message);
}

/** A request body the gateway could not decode: InvalidArgument with the decoder's text. */
export function badRequest(message: string): GatewayError {
  return renderGrpcError('InvalidArgument', message);
}
