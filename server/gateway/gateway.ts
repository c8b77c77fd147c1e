// etcd's v3 JSON gateway (grpc-gateway, as embedded in etcd v3.5) on top of
// the simulated cluster: requests are decoded as jsonpb would, sent through
// the playground client over the simulated network, and answered when the call
// completes in virtual time.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallOutcome } from '../../engine/etcd/client/client';
import type { RequestBodies } from '../../engine/etcd/server/messages';
import type { EngineHost } from '../host';
import { BodyTooLarge, readBody, sendJson } from '../httpUtil';
import { EtcdCalls } from './calls';
import { decodeBody, encodeMessage, type Internal } from './codec';
import { badRequest, renderEtcdError, renderGrpcError, type GatewayError } from './errors';
import { SIMULATED_ETCD_VERSION, STREAM_ROUTES, UNARY_ROUTES, type UnaryRoute } from './routes';
import { toEngineRequest } from './requests';
import { KeepAliveStream, WatchStreams } from './streams';

export interface GatewayAnswer {
  status: number;
  body: unknown;
}

export class EtcdGateway {
  readonly calls: EtcdCalls;
  readonly watches: WatchStreams;

  constructor(private readonly host: EngineHost) {
    this.calls = new EtcdCalls(host);
    this.watches = new WatchStreams(host, this.calls);
  }

  handles(path: string): boolean {
    return UNARY_ROUTES.has(path) || STREAM_ROUTES.has(path);
  }

  /** Serves one /v3/... request. The caller checked handles(path) and the method. */
  async serve(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (path === '/v3/watch') return this.watches.open(req, res);
    if (path === '/v3/lease/keepalive') return new KeepAliveStream(this.calls, req, res).run();
    const route = UNARY_ROUTES.get(path);
    if (!route) return sendJson(res, 404, renderGrpcError('NotFound', 'Not Found').body);
    let text: string;
    try {
      text = await readBody(req);
    } catch (e) {
      const err = e instanceof BodyTooLarge ? renderGrpcError('ResourceExhausted', e.message) : badRequest(String(e));
      return sendJson(res, err.status, err.body);
    }
    const answer = await this.unary(route, text);
    sendJson(res, answer.status, answer.body);
  }

  /** Decodes, calls and encodes one unary request (HTTP-free, for tests). */
  async unary(route: UnaryRoute, text: string): Promise<GatewayAnswer> {
    const decoded = decodeBody(text, route.request);
    if (!decoded.ok) return errorAnswer(badRequest(decoded.error));
    const body = toEngineRequest(route.type, decoded.value);
    const outcome = await this.calls.call(route.type, body as RequestBodies[typeof route.type]);
    return this.answer(route, outcome);
  }

  private answer(route: UnaryRoute, outcome: CallOutcome | { status: 'refused'; error: string }): GatewayAnswer {
    switch (outcome.status) {
      case 'ok': {
        let body = outcome.body as Internal;
        if (route.type === 'StatusRequest') body = { ...body, version: SIMULATED_ETCD_VERSION };
        return { status: 200, body: encodeMessage(body, route.response) };
      }
      case 'error':
      case 'unknown':
        return errorAnswer(renderEtcdError(outcome.error));
      case 'refused':
        return errorAnswer(renderGrpcError('InvalidArgument', outcome.error));
    }
  }
}

function errorAnswer(e: GatewayError): GatewayAnswer {
  return { status: e.status, body: e.body };
}
