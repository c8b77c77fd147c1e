import { describe, expect, it } from 'vitest';
import { decodeConfig, encodeConfig, registeredArgsKinds, toGoYaml } from './codec';
import { formatGoDuration, goQuote, goYamlKeyLess, parseGoDuration } from './goText';

const kinds = registeredArgsKinds([]);
const HEAD = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';
const dec = (text: string) => decodeConfig(text, kinds);
const err = (text: string) => {
  const r = dec(text);
  return r.ok ? 'ok' : r.error;
};

const FULL = `${HEAD}clientConnection:
  kubeconfig: /etc/kubernetes/scheduler.conf
  qps: 0.1
leaderElection:
  leaderElect: true
  leaseDuration: 90s
parallelism: 4
percentageOfNodesToScore: 30
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
extenders:
- urlPrefix: http://extender
  prioritizeVerb: prioritize
  weight: 2
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: ImageLocality
      enabled:
      - name: NodeResourcesFit
        weight: 5
    multiPoint:
      enabled:
      - name: MyPlugin
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: cpu
          weight: 2
  - name: MyPlugin
    args:
      apiVersion: example.com/v1
      anything: [1, two]
- schedulerName: "yes"
  percentageOfNodesToScore: 0
`;

describe('decodeConfig', () => {
  it('reads a full config: typed args lose apiVersion/kind, raw args stay as written', () => {
    const r = dec(FULL);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.leaderElection).toEqual({ leaderElect: true, leaseDuration: '90s' });
    expect(r.config.profiles![0]!.pluginConfig).toEqual([
      { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 2 }] } } },
      { name: 'MyPlugin', args: { apiVersion: 'example.com/v1', anything: [1, 'two'] } },
    ]);
    expect(r.config.profiles![1]).toEqual({ schedulerName: 'yes', percentageOfNodesToScore: 0 });
  });

  it('reads JSON the same way as YAML', () => {
    const json = JSON.stringify({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', parallelism: 4, profiles: [{ schedulerName: 'a', plugins: { score: { enabled: [{ name: 'X', weight: 2 }] } } }] });
    const yaml = `${HEAD}parallelism: 4\nprofiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled:\n      - {name: X, weight: 2}\n`;
    expect(dec(json)).toEqual(dec(yaml));
  });

  it('round-trips through the encoder', () => {
    const first = dec(FULL);
    if (!first.ok) throw new Error(first.error);
    const text = encodeConfig(first.config, kinds);
    const again = dec(text);
    if (!again.ok) throw new Error(again.error);
    expect(encodeConfig(again.config, kinds)).toBe(text);
    // the encoder writes empty plugin sets as {}: the same Go value as an absent one
    expect(again.config.profiles!.map((p) => p.pluginConfig)).toEqual(first.config.profiles!.map((p) => p.pluginConfig));
    expect(again.config.profiles![0]!.plugins!.score).toEqual(first.config.profiles![0]!.plugins!.score);
    expect(again.config.leaderElection!.leaseDuration).toBe('1m30s');
  });

  it('apiVersion and kind: missing, unregistered, or not the configuration kind', () => {
    expect(err('parallelism: 1\n')).toBe("Object 'Kind' is missing in 'parallelism: 1\n'");
    expect(err('kind: KubeSchedulerConfiguration\n')).toBe("Object 'apiVersion' is missing in 'kind: KubeSchedulerConfiguration\n'");
    expect(err('')).toBe("Object 'Kind' is missing in ''");
    expect(err('apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n')).toBe(
      'no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io/v1beta3" in scheme "pkg/scheduler/apis/config/scheme/scheme.go:29"',
    );
    expect(err('apiVersion: v1\nkind: Pod\n')).toBe('no kind "Pod" is registered for version "v1" in scheme "pkg/scheduler/apis/config/scheme/scheme.go:29"');
    expect(err('apiVersion: kubescheduler.config.k8s.io/v1\nkind: NodeResourcesFitArgs\n')).toBe(
      "couldn't decode as KubeSchedulerConfiguration, got kubescheduler.config.k8s.io/v1, Kind=NodeResourcesFitArgs: ",
    );
    expect(err('apiVersion: a/b/c\nkind: X\n')).toBe('unexpected GroupVersion string: a/b/c');
    expect(err('- a\n- b\n')).toBe(
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    expect(err('apiVersion: 1\nkind: X\n')).toBe("couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string");
  });

  it('strict: unknown fields anywhere, with their paths, all listed', () => {
    expect(err(`${HEAD}foo: 1\nprofiles:\n- schedulerName: a\n  bar: 2\n  plugins:\n    score:\n      enabled:\n      - name: X\n        wieght: 3\n`)).toBe(
      'strict decoding error: unknown field "foo", unknown field "profiles[0].bar", unknown field "profiles[0].plugins.score.enabled[0].wieght"',
    );
  });

  it('strict: repeated keys (go-yaml line numbers for YAML, paths for JSON)', () => {
    expect(err(`${HEAD}parallelism: 1\nparallelism: 2\n`)).toBe('strict decoding error: yaml: unmarshal errors:\n  line 4: key "parallelism" already set in map');
    expect(err('{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration","parallelism":1,"parallelism":2}')).toBe(
      'strict decoding error: duplicate field "parallelism"',
    );
  });

  it('strict: plugin args are decoded by kind, their unknown fields reported under the pluginConfig entry', () => {
    expect(err(`${HEAD}profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesAbsolute: 5\n      foo: 1\n`)).toBe(
      'strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin DefaultPreemption: strict decoding error: unknown field "foo"',
    );
    // out-of-tree plugins' args are not looked into
    expect(err(`${HEAD}profiles:\n- pluginConfig:\n  - name: Mine\n    args:\n      foo: 1\n`)).toBe('ok');
  });

  it('plugin args of another kind, or of an unknown one', () => {
    expect(err(`${HEAD}profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      kind: DefaultPreemptionArgs\n`)).toBe(
      'decoding .profiles[0].pluginConfig[0]: args for plugin NodeResourcesFit were not of type NodeResourcesFitArgs.kubescheduler.config.k8s.io, got DefaultPreemptionArgs.kubescheduler.config.k8s.io',
    );
    expect(err(`${HEAD}profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      kind: FooArgs\n`)).toBe(
      'decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: no kind "FooArgs" is registered for version "kubescheduler.config.k8s.io/v1" in scheme "pkg/scheduler/apis/config/scheme/scheme.go:29"',
    );
    expect(err(`${HEAD}profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesAbsolute: lots\n`)).toBe(
      'decoding .profiles[0].pluginConfig[0]: decoding args for plugin DefaultPreemption: json: cannot unmarshal string into Go struct field DefaultPreemptionArgs.minCandidateNodesAbsolute of type int32',
    );
  });

  it('type errors are encoding/json\'s, naming the struct and the field path', () => {
    expect(err(`${HEAD}parallelism: "16"\n`)).toBe('json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.parallelism of type int32');
    expect(err(`${HEAD}profiles:\n- schedulerName: true\n`)).toBe('json: cannot unmarshal bool into Go struct field KubeSchedulerProfile.profiles.schedulerName of type string');
    expect(err(`${HEAD}profiles:\n- plugins:\n    score:\n      enabled:\n      - name: X\n        weight: 1.5\n`)).toBe(
      'json: cannot unmarshal number 1.5 into Go struct field Plugin.profiles.plugins.score.enabled.weight of type int32',
    );
    expect(err(`${HEAD}podMaxBackoffSeconds: 9223372036854775808\n`)).toMatch(/^json: cannot unmarshal number \S+ into Go struct field KubeSchedulerConfiguration.podMaxBackoffSeconds of type int64$/);
    expect(err(`${HEAD}percentageOfNodesToScore: 3000000000\n`)).toBe('json: cannot unmarshal number 3000000000 into Go struct field KubeSchedulerConfiguration.percentageOfNodesToScore of type int32');
    expect(err(`${HEAD}leaderElection: on\n`)).toBe('json: cannot unmarshal bool into Go struct field KubeSchedulerConfiguration.leaderElection of type v1alpha1.LeaderElectionConfiguration');
    expect(err(`${HEAD}profiles: [x]\n`)).toBe('json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.profiles of type v1.KubeSchedulerProfile');
    expect(err(`${HEAD}enableProfiling: 1\n`)).toBe('json: cannot unmarshal number into Go struct field DebuggingConfiguration.enableProfiling of type bool');
  });

  it('durations: metav1.Duration\'s own errors', () => {
    expect(err(`${HEAD}leaderElection:\n  leaseDuration: 15\n`)).toBe('json: cannot unmarshal number into Go value of type string');
    expect(err(`${HEAD}leaderElection:\n  leaseDuration: "15"\n`)).toBe('time: missing unit in duration "15"');
    expect(err(`${HEAD}leaderElection:\n  leaseDuration: 1d\n`)).toBe('time: unknown unit "d" in duration "1d"');
    expect(err(`${HEAD}leaderElection:\n  leaseDuration: abc\n`)).toBe('time: invalid duration "abc"');
  });

  it('bad YAML: go-yaml\'s message, and the position for editors', () => {
    expect(dec(`${HEAD}profiles:\n- schedulerName: a: b\n`)).toEqual({
      ok: false,
      error: 'yaml: line 4: mapping values are not allowed in this context',
      position: { line: 4, column: 18 },
    });
    expect(dec(`${HEAD}profiles:\n\t- schedulerName: a\n`)).toEqual({
      ok: false,
      error: 'yaml: line 4: found character that cannot start any token',
      position: { line: 4, column: 1 },
    });
    expect(err(`${HEAD}profiles: [a, b\n`)).toBe("yaml: line 3: did not find expected ',' or ']'");
    expect(err(`${HEAD}profiles:\n- schedulerName: "a\n`)).toBe('yaml: line 5: found unexpected end of stream');
  });

  it("bad JSON: encoding/json's syntax errors, reported by the kind lookup", () => {
    expect(dec('{"apiVersion": "kubescheduler.config.k8s.io/v1",\n "kind": x}')).toEqual({
      ok: false,
      error: "couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value",
      position: { line: 2, column: 10 },
    });
    expect(err('{"a": 1,}')).toBe("couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string");
    expect(err('{"a" 1}')).toBe("couldn't get version/kind; json parse error: invalid character '1' after object key");
    expect(err('{"a": [1 2]}')).toBe("couldn't get version/kind; json parse error: invalid character '2' after array element");
    expect(err('{"a": tru}')).toBe("couldn't get version/kind; json parse error: invalid character '}' in literal true (expecting 'e')");
    expect(err('{"a": 1')).toBe("couldn't get version/kind; json parse error: unexpected end of JSON input");
    expect(err('{} x')).toBe("couldn't get version/kind; json parse error: invalid character 'x' after top-level value");
  });

  it('YAML 1.1 as go-yaml v2 reads it: yes/on are booleans, merge keys apply', () => {
    expect(err(`${HEAD}profiles:\n- schedulerName: yes\n`)).toBe('json: cannot unmarshal bool into Go struct field KubeSchedulerProfile.profiles.schedulerName of type string');
    const r = dec(`${HEAD}base: &b {parallelism: 3}\n`);
    expect(r.ok ? 'ok' : r.error).toBe('strict decoding error: unknown field "base"');
    const m = dec(`apiVersion: kubescheduler.config.k8s.io/v1\n<<: {kind: KubeSchedulerConfiguration, parallelism: 3}\nparallelism: 5\n`);
    expect(m.ok && m.config.parallelism).toBe(5);
  });
});

describe('encodeConfig (the v1 YAML encoder)', () => {
  it("prints Go's JSON of the structs: zero values of required fields, omitempty ones dropped, keys sorted, durations canonical", () => {
    const text = encodeConfig(
      {
        leaderElection: { leaseDuration: '90s' },
        clientConnection: { qps: 0.1 },
        extenders: [{ urlPrefix: 'http://e', prioritizeVerb: 'p', weight: 1 }],
        profiles: [{ schedulerName: 'true', plugins: { score: {} }, pluginConfig: [{ name: 'Mine' }, { name: 'VolumeBinding', args: { bindTimeoutSeconds: 5 } }] }],
      },
      kinds,
    );
    expect(text).toBe(`apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: ""
  qps: 0.1
extenders:
- httpTimeout: 0s
  prioritizeVerb: p
  urlPrefix: http://e
  weight: 1
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: null
  leaseDuration: 1m30s
  renewDeadline: 0s
  resourceLock: ""
  resourceName: ""
  resourceNamespace: ""
  retryPeriod: 0s
profiles:
- pluginConfig:
  - args: null
    name: Mine
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      bindTimeoutSeconds: 5
      kind: VolumeBindingArgs
    name: VolumeBinding
  plugins:
    bind: {}
    filter: {}
    multiPoint: {}
    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score: {}
  schedulerName: "true"
`);
  });
});

describe('toGoYaml quoting (go-yaml v2)', () => {
  it('double-quotes strings that would read as other types, single-quotes ones that cannot be plain', () => {
    expect(toGoYaml({ a: ['yes', '1.5', '', 'null', '0777', '1:20', 'a: b', '#x', ' lead', '*', 'plain text', 'it\'s', 'l1\nl2'] })).toBe(
      `a:\n- "yes"\n- "1.5"\n- ""\n- "null"\n- "0777"\n- "1:20"\n- 'a: b'\n- '#x'\n- ' lead'\n- '*'\n- plain text\n- it's\n- |-\n  l1\n  l2\n`,
    );
  });
});

describe('Go text helpers', () => {
  it('time.ParseDuration and Duration.String', () => {
    const ns = (s: string) => {
      const r = parseGoDuration(s);
      return r.ok ? r.ns : r.error;
    };
    expect(ns('1h2m3.5s')).toBe(3_723_500_000_000n);
    expect(ns('1.5ms')).toBe(1_500_000n);
    expect(ns('-2s')).toBe(-2_000_000_000n);
    expect(ns('0')).toBe(0n);
    expect(ns('')).toBe('time: invalid duration ""');
    expect(ns('.s')).toBe('time: invalid duration ".s"');
    expect(formatGoDuration(3_600_000_000_000n)).toBe('1h0m0s');
    expect(formatGoDuration(90_000_000_000n)).toBe('1m30s');
    expect(formatGoDuration(1_500_000_000n)).toBe('1.5s');
    expect(formatGoDuration(1_500_000n)).toBe('1.5ms');
    expect(formatGoDuration(1_500n)).toBe('1.5µs');
    expect(formatGoDuration(15n)).toBe('15ns');
    expect(formatGoDuration(0n)).toBe('0s');
  });

  it("go-yaml v2's key order: letters by code point, numbers by value, others first", () => {
    const sorted = ['b', 'a10', 'a9', 'B', '_x', 'a', 'A1'].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));
    expect(sorted).toEqual(['_x', 'A1', 'B', 'a', 'a9', 'a10', 'b']);
  });

  it('strconv.Quote', () => {
    expect(goQuote('a"b\n\u0001')).toBe('"a\\"b\\n\\x01"');
  });
});
