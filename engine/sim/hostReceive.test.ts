// An actor kind's host handler: while the actor's process is down and its
// machine is up, the payload types it takes are handled with the durable
// state (and answered from the host's address); everything else is refused
// as before, and a running process gets them itself.
import { describe, expect, it } from 'vitest';
import type { Actor, ActorId, Payload } from './actor';
import { registerActorKind, Simulation, type ActorContext } from './kernel';

interface Durable {
  served: number;
}

class Echo implements Actor {
  constructor(private readonly durable: Durable) {}
  start(): void {}
  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'Ask') ctx.send(from, { type: 'Answer', by: 'process' } as Payload);
  }
  timer(): void {}
  persisted(): void {}
}

const answers: { to: string; by: string }[] = [];

class Asker implements Actor {
  start(): void {}
  receive(ctx: ActorContext, _from: ActorId, p: Payload): void {
    if (p.type === 'Answer') answers.push({ to: ctx.id, by: (p as unknown as { by: string }).by });
  }
  timer(): void {}
  persisted(): void {}
}

registerActorKind<null, Durable>({
  kind: 'host-echo',
  initDurable: () => ({ served: 0 }),
  create: (_id, _c, durable) => new Echo(durable),
  host: {
    types: new Set(['Ask']),
    receive: (host, durable, from) => {
      durable.served++;
      host.send(from, { type: 'Answer', by: `host at ${host.now}` } as Payload);
    },
  },
});
registerActorKind<null, null>({ kind: 'host-asker', initDurable: () => null, create: () => new Asker() });

describe('a host handler', () => {
  it('answers for a crashed process with its durable state, and refuses what it does not take', () => {
    answers.length = 0;
    const sim = new Simulation({ seed: 5 });
    sim.network.configure('*', '*', { minMs: 1, maxMs: 1 });
    sim.spawn('echo', 'host-echo', null);
    sim.spawn('asker', 'host-asker', null);
    const ask = (type: string) => sim.context('asker').send('echo', { type } as Payload);
    ask('Ask');
    sim.runFor(10);
    expect(answers).toEqual([{ to: 'asker', by: 'process' }]);
    sim.crash('echo');
    ask('Ask');
    ask('Other');
    sim.runFor(10);
    expect(answers[1]).toEqual({ to: 'asker', by: 'host at 11' });
    expect(sim.durable<Durable>('echo').served).toBe(1);
    const drops = sim.trace.records().filter((r) => r.kind === 'drop' && r.to === 'echo');
    expect(drops.map((r) => [r.type, r.reason])).toEqual([['Other', 'target-down']]);
    sim.restart('echo');
    ask('Ask');
    sim.runFor(10);
    expect(answers[2]).toEqual({ to: 'asker', by: 'process' });
  });
});
