// The inspector's reads, through the engine worker.
import type { PacketTraceRequest, PacketTraceView } from '../../engine/host/protocol';
import { workerApi } from '../engineClient';
import { InspectPoller } from './inspectStore';

export const inspectPoller = new InspectPoller({ inspect: async (ref) => (await workerApi()).inspect(ref) });

/** A packet through a node's iptables as TRACE logs it (read-only: the engine traces a copy). */
export async function tracePacket(node: string, req: PacketTraceRequest): Promise<PacketTraceView | { error: string } | null> {
  return (await workerApi()).tracePacket(node, req);
}
