// KubeSchedulerConfiguration, kubescheduler.config.k8s.io/v1, as kube-scheduler
// v1.32 reads it (staging/src/k8s.io/kube-scheduler/config/v1/types.go).
// Fields use the v1 JSON names; an absent field is Go's nil pointer or zero
// value. Durations stay in their v1 form (Go duration strings, "15s"); use
// durationMs() to read them. Plugin args are plain v1 JSON objects without
// apiVersion/kind (the decoder clears the type meta, as upstream's does).

export const GROUP_VERSION = 'kubescheduler.config.k8s.io/v1';
export const CONFIG_KIND = 'KubeSchedulerConfiguration';
/** v1.DefaultSchedulerName */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** The per-point plugin lists of a profile (framework.go getExtensionPoints). */
export type ExtensionPoint =
  | 'preEnqueue'
  | 'queueSort'
  | 'preFilter'
  | 'filter'
  | 'postFilter'
  | 'preScore'
  | 'score'
  | 'reserve'
  | 'permit'
  | 'preBind'
  | 'bind'
  | 'postBind';

/** In the order of the Plugins struct (and of --write-config-to's output once sorted). */
export const EXTENSION_POINTS: readonly ExtensionPoint[] = [
  'preEnqueue',
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
];

/** Go interface names, as the framework's errors print them (reflect Type.Name()). */
export const POINT_INTERFACE: Readonly<Record<ExtensionPoint, string>> = {
  preEnqueue: 'PreEnqueuePlugin',
  queueSort: 'QueueSortPlugin',
  preFilter: 'PreFilterPlugin',
  filter: 'FilterPlugin',
  postFilter: 'PostFilterPlugin',
  preScore: 'PreScorePlugin',
  score: 'ScorePlugin',
  reserve: 'ReservePlugin',
  permit: 'PermitPlugin',
  preBind: 'PreBindPlugin',
  bind: 'BindPlugin',
  postBind: 'PostBindPlugin',
};

export interface Plugin {
  name: string;
  /** Only used at Score; absent is nil (the framework then uses 1). */
  weight?: number;
}

export interface PluginSet {
  enabled?: Plugin[];
  disabled?: Plugin[];
}

export type Plugins = { [P in ExtensionPoint | 'multiPoint']?: PluginSet };

export interface PluginConfig {
  name: string;
  /** The plugin's v1 args (no apiVersion/kind), or raw JSON for plugins without a registered args kind. */
  args?: unknown;
}

export interface KubeSchedulerProfile {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: Plugins;
  pluginConfig?: PluginConfig[];
}

/** component-base config/v1alpha1 LeaderElectionConfiguration. */
export interface LeaderElectionConfiguration {
  leaderElect?: boolean;
  leaseDuration?: string;
  renewDeadline?: string;
  retryPeriod?: string;
  resourceLock?: string;
  resourceName?: string;
  resourceNamespace?: string;
}

/** component-base config/v1alpha1 ClientConnectionConfiguration. */
export interface ClientConnectionConfiguration {
  kubeconfig?: string;
  acceptContentTypes?: string;
  contentType?: string;
  qps?: number;
  burst?: number;
}

export interface ExtenderManagedResource {
  name: string;
  ignoredByScheduler?: boolean;
}

export interface ExtenderTLSConfig {
  insecure?: boolean;
  serverName?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  /** []byte: base64 in JSON. */
  certData?: string;
  keyData?: string;
  caData?: string;
}

/** Accepted and validated; the simulation has no extender to call. */
export interface Extender {
  urlPrefix?: string;
  filterVerb?: string;
  preemptVerb?: string;
  prioritizeVerb?: string;
  weight?: number;
  bindVerb?: string;
  enableHTTPS?: boolean;
  tlsConfig?: ExtenderTLSConfig;
  httpTimeout?: string;
  nodeCacheCapable?: boolean;
  managedResources?: ExtenderManagedResource[];
  ignorable?: boolean;
}

export interface KubeSchedulerConfiguration {
  apiVersion?: string;
  kind?: string;
  parallelism?: number;
  leaderElection?: LeaderElectionConfiguration;
  clientConnection?: ClientConnectionConfiguration;
  enableProfiling?: boolean;
  enableContentionProfiling?: boolean;
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  profiles?: KubeSchedulerProfile[];
  extenders?: Extender[];
  delayCacheUntilActive?: boolean;
}

/** A profile after SetDefaults: plugins merged with the defaults, pluginConfig completed. */
export interface DefaultedProfile extends KubeSchedulerProfile {
  plugins: Plugins;
  pluginConfig: PluginConfig[];
}

/** A configuration after SetDefaults_KubeSchedulerConfiguration. */
export interface DefaultedConfig extends KubeSchedulerConfiguration {
  apiVersion: string;
  kind: string;
  parallelism: number;
  leaderElection: Required<LeaderElectionConfiguration>;
  clientConnection: Required<ClientConnectionConfiguration>;
  enableProfiling: boolean;
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  profiles: DefaultedProfile[];
}

/** A profile as the framework runs it: ordered plugins per point, score weights, args. */
export interface ResolvedProfile {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  /** Weight is the score weight at 'score' (never 0), and 0 elsewhere (as ListPlugins shows). */
  points: Record<ExtensionPoint, { name: string; weight: number }[]>;
  /** Args of every plugin the profile instantiates that has a pluginConfig entry. */
  args: Map<string, unknown>;
}

/** Tells whether plugin `name` implements `point` (the lead's answer instantiates it). */
export type ImplementsPoint = (name: string, point: ExtensionPoint) => boolean;
