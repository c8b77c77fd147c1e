// Read-outs of one engine for a UI host, beyond the per-frame views: the
// cluster map's feed (deltas since the consumer's last one), the object
// inspector and the events stream. They keep derived indexes between calls,
// so they live beside the engine (in its worker), not in its state: snapshots
// and replays never carry them.
import type { Engine } from './engine';
import { EventsIndex, type EventsQuery, type EventsView } from './inspect/events';
import { inspectObject, type InspectView, type ObjectRef } from './inspect/objects';
import { ClusterFeed } from './map/feed';
import { servicePorts } from '../kubeproxy/serviceMap';
import { clusterPolicyChain } from '../kubeproxy/chains';
import { serviceAnswer, zoneAnswers } from '../coredns/records';

/** Names a CoreDNS pod's section lists at most. */
const NAMES_LIMIT = 200;
import type { MapDelta } from './map/protocol';
import { cachedStore, engineMapSource, readyApiServer } from './map/source';

export class Observer {
  private readonly feed: ClusterFeed;
  private readonly eventsIndex = new EventsIndex();

  constructor(private readonly engine: Engine) {
    this.feed = new ClusterFeed(engineMapSource(engine));
  }

  /** The map's changes since delta `seq` of feed `epoch` (everything when those are not this feed's latest). */
  clusterMap(epoch: number, seq: number): MapDelta {
    return this.feed.next(epoch, seq);
  }

  private events(): EventsIndex {
    this.eventsIndex.refresh(cachedStore(readyApiServer(this.engine), '', 'events'));
    return this.eventsIndex;
  }

  /** One object's YAML, owners, dependents and events; an error text for an unknown resource type. */
  inspect(ref: ObjectRef): InspectView | { error: string } {
    const v = inspectObject(readyApiServer(this.engine), ref, this.events(), this.engine.sim.now);
    if (typeof v === 'string') return { error: v };
    if (v.found && ref.group === '' && ref.resource === 'nodes') {
      const m = this.engine.nodeMachine(ref.name);
      if (m) v.machine = m;
    }
    if (v.found && ref.group === '' && ref.resource === 'services') {
      const svc = readyApiServer(this.engine)?.cluster.get('', 'services', v.ref.namespace, ref.name);
      const chains = svc ? servicePorts(svc).map((p) => ({ port: p.name, chain: clusterPolicyChain(p.name, p.protocol) })) : [];
      if (chains.length) v.serviceProxy = { chains, nodes: this.engine.machineNodes() };
      const dns = this.engine.corednsCaches().find((c) => c.state.synced);
      if (dns) v.serviceDns = { from: `${dns.namespace}/${dns.pod}`, answer: serviceAnswer(dns.state.view, dns.config?.kubernetes ?? null, v.ref.namespace ?? 'default', ref.name) };
    }
    if (v.found && ref.group === '' && ref.resource === 'pods') {
      const c = this.engine.corednsCaches().find((x) => x.namespace === v.ref.namespace && x.pod === ref.name);
      if (c) v.coredns = { process: c.process, synced: c.state.synced, services: c.state.view.services.length, names: zoneAnswers(c.state.view, c.config?.kubernetes ?? null).slice(0, NAMES_LIMIT) };
    }
    return v;
  }

  /** The newest events matching the query (null before an API server is ready). */
  eventsView(q: EventsQuery): EventsView | null {
    if (!readyApiServer(this.engine)) return null;
    return this.events().query(q, this.engine.sim.now);
  }
}
