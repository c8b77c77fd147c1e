// The headless server end to end: a real HTTP listener on an ephemeral
// 127.0.0.1 port, the control API and the etcd gateway over the simulation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server';
import { b64, get, JsonStream, post, unb64 } from './testkit';

let srv: RunningServer;
let base = '';

type Obj = Record<string, unknown>;
const o = (v: unknown) => v as Obj;

beforeAll(async () => {
  srv = await startServer({ port: 0, seed: 11, etcdMembers: 3, speed: 1 });
  base = srv.url;
  await post(base, '/playground/v1/clock', { advance: '3s' }); // elect a leader
});

afterAll(async () => {
  await srv.close();
});

describe('control API', () => {
  it('GET /state describes the simulation', async () => {
    const r = await get(base, '/playground/v1/state');
    expect(r.status).toBe(200);
    const s = o(r.json);
    expect(s.seed).toBe(11);
    expect(s.speed).toBe(1);
    expect(s.virtualTime as number).toBeGreaterThanOrEqual(3000);
    expect((s.components as Obj[]).map((c) => c.name)).toEqual(['etcd-0', 'etcd-1', 'etcd-2', 'etcd-client-0', 'kube-apiserver-0', 'kubectl-0', 'kube-controller-manager-0', 'kwok-controller-0', 'csi-hostpathplugin-0', 'metrics-server-0', 'kubeadm-addons-0', 'kube-scheduler-0']);
    expect(typeof s.traceDigest).toBe('string');
  });

  it('POST /clock advances, pauses, steps and resumes', async () => {
    const before = o((await get(base, '/playground/v1/state')).json).virtualTime as number;
    const paused = await post(base, '/playground/v1/clock', { speed: 0 });
    expect(o(paused.json).speed).toBe(0);
    const t0 = o(paused.json).virtualTime as number;
    expect(t0).toBeGreaterThanOrEqual(before);
    const adv = await post(base, '/playground/v1/clock', { advance: '1m30s' });
    expect(adv.status).toBe(200);
    expect(o(adv.json).virtualTime as number).toBeCloseTo(t0 + 90_000, 3);
    const ms = await post(base, '/playground/v1/clock', { advance: 250 });
    expect(o(ms.json).virtualTime as number).toBeCloseTo(t0 + 90_250, 3);
    const ev = o(ms.json).events as number;
    const st = await post(base, '/playground/v1/clock', { step: 5 });
    expect(o(st.json).events).toBe(ev + 5);
    expect(o(st.json).stepped).toBe(5);
    // Paused: no time passes on its own.
    await new Promise((r) => setTimeout(r, 50));
    expect(o((await get(base, '/playground/v1/state')).json).events).toBe(ev + 5);
    expect(o((await post(base, '/playground/v1/clock', { speed: 1 })).json).speed).toBe(1);
  });

  it('POST /clock refuses bad input', async () => {
    for (const body of [{ advance: '-1s' }, { advance: '3 days' }, { advance: 'soon' }, { speed: 'fast' }, { speed: -1 }, { speed: 1e9 }, { step: 0 }, { step: 1.5 }, {}, { advance: '1s', speed: 2 }, { bogus: 1 }, [1]]) {
      const r = await post(base, '/playground/v1/clock', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof o(r.json).error).toBe('string');
    }
    const m = await post(base, '/playground/v1/clock', '{"advance":');
    expect(m.status).toBe(400);
    expect(o(m.json).error).toMatch(/malformed JSON/);
  });

  it('GET /etcd shows the members and one leader', async () => {
    const r = await get(base, '/playground/v1/etcd');
    const v = o(r.json);
    const members = v.members as Obj[];
    expect(members.map((m) => m.name)).toEqual(['etcd-0', 'etcd-1', 'etcd-2']);
    expect(members.filter((m) => m.role === 'leader')).toHaveLength(1);
    for (const m of members) {
      for (const k of ['term', 'commitIndex', 'appliedIndex', 'lastLogIndex']) expect(typeof m[k]).toBe('number');
      expect(m.leader).toBe(v.leader);
      expect('vote' in m).toBe(true);
    }
  });
});

describe('etcd gateway: KV', () => {
  it('put, range, delete, txn and compaction with etcd’s JSON shapes', async () => {
    const p1 = await post(base, '/v3/kv/put', { key: b64('it/a'), value: b64('1') });
    expect(p1.status).toBe(200);
    const h1 = o(o(p1.json).header);
    expect(Object.keys(h1)).toEqual(['cluster_id', 'member_id', 'revision', 'raft_term']);
    expect(typeof h1.revision).toBe('string');
    const rev1 = Number(h1.revision);

    const p2 = o((await post(base, '/v3/kv/put', { key: b64('it/a'), value: b64('2'), prev_kv: true })).json);
    expect(o(o(p2.header)).revision).toBe(String(rev1 + 1));
    expect(p2.prev_kv).toEqual({ key: b64('it/a'), create_revision: String(rev1), mod_revision: String(rev1), version: '1', value: b64('1') });

    await post(base, '/v3/kv/put', { key: b64('it/b'), value: b64('x') });
    const r = o((await post(base, '/v3/kv/range', { key: b64('it/'), range_end: b64('it0'), limit: 1 })).json);
    expect(r.count).toBe('2');
    expect(r.more).toBe(true);
    expect((r.kvs as Obj[]).map((k) => unb64(k.key as string))).toEqual(['it/a']);

    const none = o((await post(base, '/v3/kv/range', { key: b64('it/none') })).json);
    expect(Object.keys(none)).toEqual(['header']);

    const t = o(
      (
        await post(base, '/v3/kv/txn', {
          compare: [{ key: b64('it/a'), result: 'EQUAL', target: 'VALUE', value: b64('2') }],
          success: [{ request_put: { key: b64('it/c'), value: b64('y') } }, { request_range: { key: b64('it/c') } }],
          failure: [{ request_delete_range: { key: b64('it/a') } }],
        })
      ).json,
    );
    expect(t.succeeded).toBe(true);
    const resps = t.responses as Obj[];
    expect(Object.keys(resps[0]!)).toEqual(['response_put']);
    expect(o(o(resps[1]!.response_range).kvs as Obj[])[0]).toMatchObject({ value: b64('y'), version: '1' });

    const d = o((await post(base, '/v3/kv/deleterange', { key: b64('it/'), range_end: b64('it0'), prev_kv: true })).json);
    expect(d.deleted).toBe('3');
    expect((d.prev_kvs as Obj[]).map((k) => unb64(k.key as string))).toEqual(['it/a', 'it/b', 'it/c']);

    const cur = Number(o(d.header).revision);
    const c = await post(base, '/v3/kv/compaction', { revision: cur - 1 });
    expect(c.status).toBe(200);
    const old = await post(base, '/v3/kv/range', { key: b64('it/a'), revision: rev1 });
    expect(old.status).toBe(400);
    expect(old.json).toEqual({ error: 'etcdserver: mvcc: required revision has been compacted', code: 11, message: 'etcdserver: mvcc: required revision has been compacted' });
    const fut = await post(base, '/v3/kv/range', { key: b64('it/a'), revision: cur + 100 });
    expect(o(fut.json).message).toBe('etcdserver: mvcc: required revision is a future revision');
  });

  it('answers etcd errors with grpc-gateway’s shape and status', async () => {
    const dup = await post(base, '/v3/kv/txn', { success: [{ request_put: { key: b64('d'), value: b64('1') } }, { request_put: { key: b64('d'), value: b64('2') } }] });
    expect(dup.status).toBe(400);
    expect(o(dup.json).code).toBe(3);
    expect(o(dup.json).error).toBe('etcdserver: duplicate key given in txn request');
    const many = await post(base, '/v3/kv/txn', { success: Array.from({ length: 129 }, (_, i) => ({ request_put: { key: b64(`k${i}`) } })) });
    expect(o(many.json).error).toBe('etcdserver: too many operations in txn request');
    const nokey = await post(base, '/v3/kv/put', {});
    expect(nokey.status).toBe(400);
    expect(o(nokey.json).error).toBe('etcdserver: key is not provided');
    const lease = await post(base, '/v3/kv/put', { key: b64('k'), lease: '5' });
    expect(lease.status).toBe(404);
    expect(o(lease.json)).toEqual({ error: 'etcdserver: requested lease not found', code: 5, message: 'etcdserver: requested lease not found' });
  });

  it('refuses malformed requests with 4xx JSON and keeps serving', async () => {
    const cases: [string, unknown, number, string][] = [
      ['/v3/kv/put', '{"key":"Zm9v",', 400, 'unexpected EOF'],
      ['/v3/kv/put', '{"key":"!!!"}', 400, 'illegal base64 data at input byte 0'],
      ['/v3/kv/range', '{"key":"Zm9v","limit":"abc"}', 400, "invalid character 'a' looking for beginning of value"],
      ['/v3/kv/range', '{"key":"Zm9v","sort_order":"BOGUS"}', 400, 'unknown value "BOGUS" for enum etcdserverpb.RangeRequest_SortOrder'],
      ['/v3/kv/range', '[1]', 400, 'json: cannot unmarshal array into Go value of type map[string]json.RawMessage'],
      ['/v3/watch', '{"create_request":{"key":5}}', 400, 'json: cannot unmarshal number into Go value of type []uint8'],
      ['/v3/lease/keepalive', '{"ID":true}', 400, 'json: cannot unmarshal bool into Go value of type int64'],
    ];
    for (const [path, body, status, error] of cases) {
      const r = await post(base, path, body);
      expect(r.status, `${path} ${String(body)}`).toBe(status);
      expect(o(r.json).error).toBe(error);
      expect(o(r.json).code).toBe(3);
    }
    const unknown = await post(base, '/v3/kv/nope', {});
    expect(unknown.status).toBe(404);
    expect(o(unknown.json).error).toBe('Not Found');
    expect((await get(base, '/nowhere')).status).toBe(404);
    const method = await get(base, '/v3/kv/range');
    expect(method.status).toBe(405);
    expect(typeof o(method.json).error).toBe('string');
    expect((await post(base, '/playground/v1/state', {})).status).toBe(405);
    expect((await post(base, '/v3/kv/range', { key: b64('still-alive') })).status).toBe(200);
  });

  it('answers 500 JSON when a handler throws, and keeps going', async () => {
    const engine = srv.host.engine;
    const original = engine.etcdView.bind(engine);
    engine.etcdView = () => {
      throw new Error('boom');
    };
    const origError = console.error;
    console.error = () => undefined;
    try {
      const r = await get(base, '/playground/v1/etcd');
      expect(r.status).toBe(500);
      expect(o(r.json).error).toBe('internal error: boom');
    } finally {
      engine.etcdView = original;
      console.error = origError;
    }
    expect((await get(base, '/playground/v1/etcd')).status).toBe(200);
  });

  it('serves Maintenance.Status', async () => {
    const s = o((await post(base, '/v3/maintenance/status', {})).json);
    expect(s.version).toBe('3.5.0');
    expect(typeof s.leader).toBe('string');
    expect(Number(s.raftIndex)).toBeGreaterThan(0);
    expect(s.raftTerm).toBe(o(s.header).raft_term);
  });
});

describe('etcd gateway: leases', () => {
  it('grant, timetolive, keepalive (stream), leases, revoke', async () => {
    const g = await post(base, '/v3/lease/grant', { TTL: 30, ID: 4242 });
    expect(g.status).toBe(200);
    expect(o(g.json)).toMatchObject({ ID: '4242', TTL: '30' });
    expect('error' in o(g.json)).toBe(false);
    const again = await post(base, '/v3/lease/grant', { TTL: 30, ID: 4242 });
    expect(again.status).toBe(400); // FailedPrecondition: 400 in etcd 3.5's gateway
    expect(o(again.json).error).toBe('etcdserver: lease already exists');

    await post(base, '/v3/kv/put', { key: b64('leased'), value: b64('v'), lease: 4242 });
    const ttl = o((await post(base, '/v3/lease/timetolive', { ID: 4242, keys: true })).json);
    expect(ttl.grantedTTL).toBe('30');
    expect(Number(ttl.TTL)).toBeGreaterThanOrEqual(28);
    expect(ttl.keys).toEqual([b64('leased')]);
    const missing = o((await post(base, '/v3/lease/timetolive', { ID: 999 })).json);
    expect(missing).toMatchObject({ ID: '999', TTL: '-1' });

    const ka = new JsonStream(base, '/v3/lease/keepalive', '{"ID":4242}{"ID":"999"}');
    await ka.waitEnd();
    expect(ka.status).toBe(200);
    expect(ka.messages).toHaveLength(2);
    expect(o(o(ka.messages[0]).result)).toMatchObject({ ID: '4242', TTL: '30' });
    const notFound = o(o(ka.messages[1]).result);
    expect(notFound.ID).toBe('999');
    expect('TTL' in notFound).toBe(false); // TTL 0: lease not found, omitted

    const ls = o((await post(base, '/v3/lease/leases', {})).json);
    expect((ls.leases as Obj[]).map((l) => l.ID)).toContain('4242');
    expect((await post(base, '/v3/lease/revoke', { ID: 4242 })).status).toBe(200);
    const gone = await post(base, '/v3/kv/range', { key: b64('leased') });
    expect('kvs' in o(gone.json)).toBe(false);
    const rv = await post(base, '/v3/lease/revoke', { ID: 4242 });
    expect(rv.status).toBe(404);
  });
});

describe('etcd gateway: watch', () => {
  it('streams created, PUT and DELETE events with prev_kv, then cancels', async () => {
    const w = new JsonStream(base, '/v3/watch', { create_request: { key: b64('w/'), range_end: b64('w0'), prev_kv: true } }, { keepOpen: true });
    const [created] = await w.waitFor(1);
    expect(w.status).toBe(200);
    expect(o(o(created).result).created).toBe(true);
    expect('watch_id' in o(o(created).result)).toBe(false); // the stream's first watch: id 0, omitted
    await post(base, '/v3/kv/put', { key: b64('w/1'), value: b64('a') });
    await post(base, '/v3/kv/put', { key: b64('w/1'), value: b64('b') });
    await post(base, '/v3/kv/deleterange', { key: b64('w/1') });
    const msgs = (await w.waitFor(4)).map((m) => o(o(m).result));
    const events = msgs.slice(1).flatMap((m) => m.events as Obj[]);
    expect(events).toHaveLength(3);
    expect('type' in events[0]!).toBe(false); // PUT is the zero value
    expect(o(events[0]!.kv)).toMatchObject({ key: b64('w/1'), value: b64('a'), version: '1' });
    expect(o(events[1]!.prev_kv)).toMatchObject({ value: b64('a') });
    expect(events[2]!.type).toBe('DELETE');
    expect(Object.keys(o(events[2]!.kv))).toEqual(['key', 'mod_revision']);

    // A second watch on the same stream gets id 1; cancelling it answers canceled.
    w.send({ create_request: { key: b64('other') } });
    const m2 = o(o((await w.waitFor(5))[4]).result);
    expect(m2).toMatchObject({ watch_id: '1', created: true });
    w.send({ cancel_request: { watch_id: 1 } });
    const m3 = o(o((await w.waitFor(6))[5]).result);
    expect(m3).toMatchObject({ watch_id: '1', canceled: true });
    // A duplicate explicit id fails like etcd: created + canceled, id -1.
    w.send({ create_request: { key: b64('dup'), watch_id: 0 } }); // 0 = auto: gets 1 again (freed) or 2
    w.send({ create_request: { key: b64('dup2'), watch_id: 7 } });
    w.send({ create_request: { key: b64('dup3'), watch_id: 7 } });
    const tail = (await w.waitFor(9)).slice(6).map((m) => o(o(m).result));
    expect(tail.find((m) => m.watch_id === '7')).toMatchObject({ created: true });
    expect(tail.find((m) => m.watch_id === '-1')).toMatchObject({ created: true, canceled: true, cancel_reason: 'mvcc: duplicate watch ID provided on the WatchStream' });
    w.close();
    // The server cancels the watches of a closed stream in the engine.
    await new Promise((r) => setTimeout(r, 100));
    expect(srv.gateway.watches.openStreams).toBe(0);
  });

  it('cancels a watch whose start revision was compacted', async () => {
    const p = o((await post(base, '/v3/kv/put', { key: b64('wc'), value: b64('1') })).json);
    const rev = Number(o(p.header).revision);
    await post(base, '/v3/kv/put', { key: b64('wc'), value: b64('2') });
    await post(base, '/v3/kv/compaction', { revision: rev + 1 });
    const w = new JsonStream(base, '/v3/watch', { create_request: { key: b64('wc'), start_revision: rev } });
    const msgs = (await w.waitFor(2)).map((m) => o(o(m).result));
    expect(msgs[0]).toMatchObject({ created: true });
    expect(msgs[1]).toMatchObject({ canceled: true, compact_revision: String(rev + 1) });
    w.close();
  });

  it('replays history from a start revision', async () => {
    const p = o((await post(base, '/v3/kv/put', { key: b64('wh'), value: b64('1') })).json);
    const rev = Number(o(p.header).revision);
    await post(base, '/v3/kv/put', { key: b64('wh'), value: b64('2') });
    const w = new JsonStream(base, '/v3/watch', { create_request: { key: b64('wh'), start_revision: rev } });
    const msgs = (await w.waitFor(2)).map((m) => o(o(m).result));
    const evs = msgs.slice(1).flatMap((m) => m.events as Obj[]);
    expect(evs.map((e) => unb64(o(e.kv).value as string))).toEqual(['1', '2']);
    w.close();
  });

  it('ends the stream with an error when its member crashes', async () => {
    const w = new JsonStream(base, '/v3/watch', { create_request: { key: b64('crash') } });
    await w.waitFor(1);
    const leader = o((await get(base, '/playground/v1/etcd')).json).leader as string;
    const f = await post(base, '/playground/v1/faults', { action: 'crash', target: leader });
    expect(f.status).toBe(200);
    await post(base, '/playground/v1/clock', { advance: '10ms' });
    await w.waitEnd();
    expect(w.ended).toBe(true);
    expect(o(w.messages[w.messages.length - 1]).error).toMatchObject({ grpc_code: 14, http_code: 503 });
    await post(base, '/playground/v1/faults', { action: 'restart', target: leader });
    await post(base, '/playground/v1/clock', { advance: '3s' });
    expect((await post(base, '/v3/kv/put', { key: b64('after'), value: b64('crash') })).status).toBe(200);
  });
});

describe('client load', () => {
  it('POST /load starts and stops the in-simulation load generator, refusing bad input', async () => {
    const start = await post(base, '/playground/v1/load', { rate: 200, keySpace: 5 });
    expect(start.status).toBe(200);
    await post(base, '/playground/v1/clock', { advance: '1s' });
    const stop = await post(base, '/playground/v1/load', { rate: 0 });
    const load = o(o(stop.json).load);
    expect(load.succeeded as number).toBeGreaterThan(150);
    expect(load.failed).toBe(0);
    for (const body of [{}, { rate: 'fast' }, { rate: -1 }, { rate: 10, keySpace: 0 }, [1]]) {
      const r = await post(base, '/playground/v1/load', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof o(r.json).error).toBe('string');
    }
  });
});

describe('faults and the command log', () => {
  it('applies faults and refuses bad ones', async () => {
    const crash = await post(base, '/playground/v1/faults', { action: 'crash', target: 'etcd-2' });
    expect(crash.status).toBe(200);
    let members = o((await get(base, '/playground/v1/etcd')).json).members as Obj[];
    expect(members.find((m) => m.name === 'etcd-2')).toMatchObject({ up: false, role: 'down' });
    expect((await post(base, '/playground/v1/faults', { action: 'restart', target: 'etcd-2' })).status).toBe(200);
    expect((await post(base, '/playground/v1/faults', { action: 'partition', groups: [['etcd-0'], ['etcd-1', 'etcd-2']] })).status).toBe(200);
    expect(o((await get(base, '/playground/v1/etcd')).json).partition).toEqual([['etcd-0'], ['etcd-1', 'etcd-2']]);
    expect((await post(base, '/playground/v1/faults', { action: 'heal' })).status).toBe(200);
    expect((await post(base, '/playground/v1/faults', { action: 'slow-disk', target: 'etcd-1', fsyncMs: 200 })).status).toBe(200);
    members = o((await get(base, '/playground/v1/etcd')).json).members as Obj[];
    expect(members.find((m) => m.name === 'etcd-1')!.fsyncMs).toBe(200);
    expect((await post(base, '/playground/v1/faults', { action: 'block', from: 'etcd-0', to: 'etcd-1' })).status).toBe(200);
    expect((await post(base, '/playground/v1/faults', { action: 'link', loss: 0.1 })).status).toBe(200);
    expect((await post(base, '/playground/v1/faults', { action: 'heal' })).status).toBe(200);
    expect((await post(base, '/playground/v1/faults', { action: 'slow-disk', target: 'etcd-1', fsyncMs: 1 })).status).toBe(200);

    const bad = await post(base, '/playground/v1/faults', { action: 'crash', target: 'etcd-9' });
    expect(bad.status).toBe(400);
    expect(o(bad.json).error).toBe('no component named "etcd-9"');
    expect((await post(base, '/playground/v1/faults', { action: 'explode' })).status).toBe(400);
    expect((await post(base, '/playground/v1/faults', { action: 'partition', groups: [['etcd-0'], ['etcd-0']] })).status).toBe(400);
    expect((await post(base, '/playground/v1/faults', '{oops')).status).toBe(400);
  });

  it('lists the faults in effect and heals them one by one', async () => {
    const cut = await post(base, '/playground/v1/faults', { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' });
    expect(cut.status).toBe(200);
    const active = o(cut.json).active as Obj[];
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ fault: { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' }, summary: 'kube-apiserver-0 ✂ etcd: no traffic either way' });
    expect(o((await get(base, '/playground/v1/etcd')).json).blocked).toContainEqual(['kube-apiserver-0', 'etcd-1']);
    expect((await post(base, '/playground/v1/faults', { action: 'crash', target: 'kube-scheduler-0' })).status).toBe(200);
    const listed = o((await get(base, '/playground/v1/faults')).json);
    expect((listed.faults as Obj[]).map((f) => o(f.fault).action)).toEqual(['cut', 'crash']);
    expect(typeof listed.virtualTime).toBe('number');
    const healed = await post(base, '/playground/v1/faults', { action: 'heal', id: active[0]!.id });
    expect(healed.status).toBe(200);
    expect((o(healed.json).active as Obj[]).map((f) => o(f.fault).action)).toEqual(['crash']);
    expect(o((await get(base, '/playground/v1/etcd')).json).blocked).toEqual([]);
    const gone = await post(base, '/playground/v1/faults', { action: 'heal', id: active[0]!.id });
    expect(gone.status).toBe(404);
    expect(o(gone.json).error).toBe(`no active fault #${active[0]!.id}`);
    const noNode = await post(base, '/playground/v1/faults', { action: 'node-loss', target: 'node-1' });
    expect(noNode.status).toBe(400);
    expect(o(noNode.json).error).toBe('no component named "node-1"');
    expect(o((await post(base, '/playground/v1/faults', { action: 'heal-all' })).json).active).toEqual([]);
    expect((await get(base, '/playground/v1/state')).json).toMatchObject({ components: expect.arrayContaining([{ name: 'kube-scheduler-0', kind: 'kube-scheduler', up: true }]) });
  });

  it('GET /commands lists faults and etcd requests in order', async () => {
    const r = o((await get(base, '/playground/v1/commands')).json);
    const cmds = r.commands as { t: number; step: number; command: Obj }[];
    expect(cmds.some((c) => c.command.type === 'fault' && o(c.command.fault).action === 'crash')).toBe(true);
    expect(cmds.some((c) => c.command.type === 'etcd' && o(c.command.request).type === 'PutRequest')).toBe(true);
    for (let i = 1; i < cmds.length; i++) expect(cmds[i]!.t).toBeGreaterThanOrEqual(cmds[i - 1]!.t);
  });
});
