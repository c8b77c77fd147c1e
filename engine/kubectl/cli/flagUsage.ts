// Descriptions of kubectl's flags for `--help` (our wording of what each flag
// does in kubectl v1.32). A command's own entry wins over the shared one.

/** By flag name, for flags that mean the same wherever they appear. */
export const FLAG_USAGE: Readonly<Record<string, string>> = {
  // Printing
  output:
    'How to print the result: json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json or jsonpath-file. Left empty, the command prints its usual human-readable summary.',
  template:
    'A Go template, given inline or as a path to a template file, used when the output format is go-template or go-template-file.',
  'allow-missing-template-keys':
    'When true (the default), a template that refers to a missing field or map key prints nothing for it instead of failing. Only matters for Go template and JSONPath output.',
  'show-managed-fields':
    'When true, the metadata.managedFields section is kept in JSON or YAML output instead of being stripped.',
  'no-headers':
    'Print the table rows without the header line.',
  'sort-by':
    'Sort the listed objects by the field at this JSONPath expression, such as \'{.metadata.name}\'. The field must hold a string or an integer.',
  // Where the objects come from
  filename:
    'A manifest file, a directory of manifests or a URL that names the objects to act on. May be repeated or comma-separated; use - to read from standard input.',
  recursive:
    'When a directory is given with -f/--filename, also read the manifests in all of its subdirectories.',
  kustomize:
    'Build the kustomization in this directory and act on the objects it produces. Cannot be combined with -f/--filename or -R/--recursive.',
  selector:
    'Only act on objects whose labels match this label query, for example -l app=web,tier!=db. The operators =, == and != are allowed, and every condition must hold.',
  'field-selector':
    'Only act on objects whose fields match this query, for example --field-selector status.phase=Running. The operators =, == and != are allowed; the server accepts only a few fields per resource type.',
  'all-namespaces':
    'Look in every namespace instead of just the current one; any namespace set with --namespace is ignored.',
  'chunk-size':
    'Fetch long lists from the server in pages of this many items instead of all at once. 0 turns paging off.',
  // Writing
  'dry-run':
    'One of none (the default), client or server. client prints the object that would be sent without sending it; server sends the request but the server does not store the result.',
  validate:
    'How strictly the input is checked against the schema: strict (or true, the default) rejects unknown or duplicate fields, warn only warns about them, and ignore (or false) skips the check and silently drops such fields.',
  'save-config':
    'When true, record the object\'s configuration in its last-applied-configuration annotation so that a later kubectl apply can compute changes against it. When false the annotation is left as it is.',
  'field-manager':
    'The manager name recorded in managedFields as the owner of the fields this command sets.',
  local:
    'When true, work only on the objects read from the given files and print the result without contacting the API server.',
  overwrite:
    'When true, existing values may be replaced; otherwise the command refuses to change a value that is already set.',
  'resource-version':
    'Only make the change if the object\'s current resourceVersion equals this value. Valid only when a single object is named.',
  subresource:
    'Act on this subresource of the object, such as status or scale, instead of the object itself. This flag is in beta.',
  // Deleting
  cascade:
    'How dependents such as the Pods of a ReplicaSet are removed: background (the default) deletes them after the owner, foreground deletes them before the owner is gone, orphan leaves them in place.',
  force:
    'When true, remove the objects from the API immediately, skipping graceful termination. This can leave things inconsistent or lose data, and needs confirmation.',
  'grace-period':
    'Seconds each object gets to shut down cleanly. A negative value (the default) uses the object\'s own setting, 1 means shut down at once, and 0 is allowed only together with --force.',
  wait:
    'When true, do not return until the deleted objects are really gone, including waiting for their finalizers.',
  timeout:
    'How long to wait before giving up, written with a unit such as 30s, 5m or 1h. 0 picks a wait based on the size of the objects.',
  'ignore-not-found':
    'When true, an object that does not exist is not treated as an error and the command still exits with 0.',
  // Apply and diff
  'server-side':
    'When true, let the API server perform the apply (server-side apply) instead of kubectl computing the patch.',
  'force-conflicts':
    'With server-side apply, take ownership of fields that another manager owns instead of failing with a conflict.',
  prune:
    'Also delete objects that were created by apply (or create --save-config) but no longer appear in the given manifests. Use together with -l/--selector or --all.',
  'prune-allowlist':
    'Replace the default list of kinds considered for --prune with these, each written as group/version/kind. May be repeated.',
  // Data sources for ConfigMaps and Secrets
  'from-literal':
    'Add a key with a literal value, written key=value. May be repeated for several keys.',
  'from-file':
    'Add a key from a file: the key is the file\'s base name, or the name you give as key=path. A directory adds one key for each validly named file in it. May be repeated.',
  'from-env-file':
    'Read key=value lines from this env-style file and add each as a key. May be repeated.',
  'append-hash':
    'Add a hash of the object\'s content to the end of its name, so that changed content gives a new name.',
  // RBAC
  verb:
    'The verbs the rule allows, such as get, list, watch, create, update, patch, delete, or * for all. May be repeated or comma-separated.',
  resource:
    'The resources the rule covers, such as pods or deployments.apps, optionally with a subresource as in pods/log. May be repeated or comma-separated.',
  'resource-name':
    'Restrict the rule to objects with these names. May be repeated.',
  'non-resource-url':
    'A URL path that is not a resource, such as /healthz or /logs/*, that the rule grants access to. May be repeated.',
  'aggregation-rule':
    'A label selector such as key=value; the new ClusterRole gathers the rules of every ClusterRole whose labels match it.',
  role:
    'The name of the Role in the same namespace that this RoleBinding grants.',
  clusterrole:
    'The name of the ClusterRole that this binding grants.',
  user:
    'A user name to bind to the role. May be repeated for several users.',
  group:
    'A group name to bind to the role. May be repeated for several groups.',
  serviceaccount:
    'A service account to bind to the role, written namespace:name. May be repeated.',
  // Services
  tcp:
    'A TCP port for the service, written port or port:targetPort. May be repeated or comma-separated.',
  clusterip:
    'The cluster IP address to give the service. Use None to make a headless service without load balancing.',
  'node-port':
    'The port opened on every node of the cluster that forwards to the service. 0 lets the cluster pick one.',
  'external-name':
    'The external DNS name the service resolves to, returned as a CNAME record.',
  'target-port':
    'The name or number of the container port that the service sends traffic to. Defaults to the value of --port.',
  protocol:
    'The network protocol of the new service: TCP (the default), UDP or SCTP.',
  'external-ip':
    'An extra IP address, not managed by Kubernetes, on which the service also accepts traffic if it is routed to a node.',
  'cluster-ip':
    'The cluster IP for the new service. Leave it empty to have one assigned, or use None for a headless service.',
  'session-affinity':
    'The session affinity of the service: None, or ClientIP to send each client to the same Pod every time.',
  // Other creation flags
  schedule:
    'When the job runs, as a cron expression such as \'*/5 * * * *\'.',
  'min-available':
    'How many Pods, as a number or a percentage, must stay available for a voluntary disruption to be allowed.',
  'max-unavailable':
    'How many Pods, as a number or a percentage, may be unavailable at once because of voluntary disruptions.',
  hard:
    'The hard limits, as a comma-separated list of resource=quantity pairs, for example pods=10,requests.cpu=2.',
  scopes:
    'A comma-separated list of quota scopes, such as BestEffort or Terminating; an object is counted only if it matches all of them.',
  class:
    'The name of the IngressClass that should handle this Ingress.',
  rule:
    'A routing rule written host/path=service:port, optionally followed by ,tls=secretname. A path ending in * becomes a Prefix match, otherwise Exact. May be repeated.',
  'default-backend':
    'The service that receives requests matching no rule, written service:port.',
  annotation:
    'An annotation to put on the Ingress, written key=value. May be repeated.',
  value:
    'The priority value of the class; Pods with a higher value are scheduled first.',
  'global-default':
    'When true, this PriorityClass is used for Pods that do not name a priority class.',
  description:
    'Free text explaining when this priority class should be used.',
  'preemption-policy':
    'Whether Pods of this class may evict lower-priority Pods: PreemptLowerPriority (the default) or Never.',
  audience:
    'An audience the token is meant for. Without it the token is for the Kubernetes API server. May be repeated for several audiences.',
  duration:
    'How long the token should stay valid, such as 10m or 1h. 0 (the default) lets the server choose; the server may also grant a different lifetime.',
  'bound-object-kind':
    'The kind of object to bind the token to: Node, Pod or Secret. Requires --bound-object-name.',
  'bound-object-name':
    'The name of the object to bind the token to; the token stops working when that object is deleted. Requires --bound-object-kind.',
  'bound-object-uid':
    'The UID of the bound object. Requires --bound-object-kind and --bound-object-name; if left out, the UID of the existing object is used.',
  edit:
    'Open the generated object in an editor before it is created.',
  'windows-line-endings':
    'Use Windows line endings (CRLF) in the file opened in the editor. By default the platform\'s own line endings are used.',
  // run
  env:
    'An environment variable for the container, written NAME=value. May be repeated.',
  command:
    'When true and extra arguments follow --, use them as the container\'s command instead of its args.',
  'image-pull-policy':
    'The container\'s image pull policy: Always, IfNotPresent or Never. Left empty, the server chooses the default.',
  annotations:
    'An annotation to put on the Pod, written key=value. May be repeated.',
  rm:
    'Delete the Pod once it exits. Only valid when attached to it, with --attach or -i/--stdin.',
  attach:
    'Wait for the Pod to run and then attach to it, as kubectl attach would. Defaults to true when -i/--stdin is set. With --restart=Never the exit code of the container is returned.',
  privileged:
    'Run the container in privileged mode.',
  overrides:
    'Inline JSON that is merged into the generated object before it is sent. It must include a valid apiVersion.',
  expose:
    'Also create a ClusterIP service in front of the Pod. Requires --port.',
  // set
  containers:
    'Only change containers whose names match this pattern in the selected Pod templates; wildcards are allowed and * (the default) means all containers.',
  keys:
    'Import only these keys from the resource named by --from. May be repeated or comma-separated.',
  resolve:
    'When listing with --list, show the values behind Secret and ConfigMap references.',
  limits:
    'Resource limits for the containers, such as cpu=200m,memory=512Mi.',
  requests:
    'Resource requests for the containers, such as cpu=100m,memory=256Mi. The server may still adjust them, for example through a LimitRange.',
  // get
  'show-labels':
    'Add a column showing all of each object\'s labels.',
  'show-kind':
    'Prefix each name with the resource type it belongs to.',
  'label-columns':
    'Add a column for each of these label keys (case-sensitive). May be comma-separated or repeated, as in -L app -L tier.',
  'watch-only':
    'Watch the objects for changes without first printing their current state.',
  'output-watch-events':
    'While watching, print full watch event objects; objects that already exist are shown as ADDED events.',
  'server-print':
    'When true (the default), ask the server for the table columns to print, which also works for extension APIs and custom resources.',
  'use-openapi-print-columns':
    'Choose the columns to print from the OpenAPI schema\'s print-column extension, when it has one. Deprecated.',
  // delete
  now:
    'Ask the objects to shut down immediately; the same as --grace-period=1.',
  interactive:
    'Ask for confirmation before deleting each object.',
  // rollout, scale, autoscale
  'to-revision':
    'The revision to go back to. 0 (the default) means the revision before the current one.',
  'current-replicas':
    'Only scale if the current replica count equals this value. -1 (the default) applies no such condition.',
  min:
    'The fewest Pods the autoscaler may scale down to. If not given or negative, the server\'s default is used.',
  max:
    'The most Pods the autoscaler may scale up to. Required.',
  'cpu-percent':
    'The average CPU use, as a percentage of the Pods\' requested CPU, that the autoscaler aims for. If not given or negative, a default policy is used.',
  // top
  'use-protocol-buffers':
    'Talk to the Metrics API with protocol buffers instead of JSON.',
  'show-capacity':
    'Show node totals based on capacity instead of allocatable resources (the default).',
  sum:
    'Add a line with the total resource usage.',
  // drain
  'delete-emptydir-data':
    'Go on even if some Pods use emptyDir volumes, whose data is lost when they are removed.',
  'disable-eviction':
    'Delete Pods directly instead of evicting them, which skips PodDisruptionBudget checks. Use with care.',
  'ignore-daemonsets':
    'Skip Pods managed by a DaemonSet instead of refusing to drain.',
  'pod-selector':
    'Only remove the Pods on the node whose labels match this selector.',
  'skip-wait-for-delete-timeout':
    'Stop waiting for a Pod whose deletion started more than this many seconds ago. Must be greater than 0 to have an effect.',
  // describe
  'show-events':
    'When true (the default), also list the events related to each object.',
  // logs
  'all-containers':
    'Show the logs of every container in the Pod or Pods.',
  'all-pods':
    'Show the logs of every Pod of the selected resource; this also turns on --prefix.',
  follow:
    'Keep the log stream open and print new lines as they are written.',
  'ignore-errors':
    'While following logs, keep going when a stream fails instead of stopping.',
  'insecure-skip-tls-verify-backend':
    'Do not check the kubelet\'s serving certificate when fetching logs. This lets a forged kubelet return false logs; it can help when the kubelet\'s certificate has expired.',
  'limit-bytes':
    'Return at most this many bytes of log. By default there is no limit.',
  'max-log-requests':
    'The most log streams followed at the same time when Pods are chosen by a selector. Defaults to 5.',
  'pod-running-timeout':
    'How long to wait for at least one Pod to be running, as a duration above zero such as 5s, 2m or 3h.',
  previous:
    'Show the logs of the container\'s previous run, if it restarted.',
  since:
    'Only show lines newer than this duration, such as 5s, 2m or 3h. By default all lines are shown. Cannot be combined with --since-time.',
  'since-time':
    'Only show lines written after this RFC3339 time. By default all lines are shown. Cannot be combined with --since.',
  tail:
    'Show only this many of the most recent lines. -1 (the default) shows every line, or the last 10 when a selector is used.',
  timestamps:
    'Start each log line with its timestamp.',
  // events
  types:
    'Only show events of these types, such as Normal or Warning. May be repeated or comma-separated.',
  // diff
  concurrency:
    'How many objects are compared with their live versions at the same time. More is faster but uses more memory, I/O and CPU.',
  // apply
  'openapi-patch':
    'When true (the default), use the server\'s OpenAPI schema to compute the patch for known types, falling back to built-in types otherwise.',
  record:
    'Store the command line in the kubernetes.io/change-cause annotation of the changed objects. Deprecated.',
  // patch
  patch:
    'The patch to apply, written inline as JSON or YAML.',
  'patch-file':
    'A file holding the patch to apply.',
  // api-resources
  'api-group':
    'Only list resources of this API group.',
  namespaced:
    'Set to true to list only namespaced resources, or to false to list only cluster-scoped ones. Left unset, both are listed.',
  verbs:
    'Only list resources that support all of these verbs, such as list or watch.',
  cached:
    'Use the locally cached discovery information if there is any.',
  categories:
    'Only list resources in these categories, such as all.',
  // config
  minify:
    'Leave out everything not used by the current context.',
  flatten:
    'Inline referenced files such as certificates so that the result is a self-contained kubeconfig.',
  current:
    'Change the context that is currently in use.',
  // version
  client:
    'Show only the client version, without contacting the server.',
};

/** By command path ("create deployment", "rollout undo") then flag name: where a flag means something particular to that command. */
export const COMMAND_FLAG_USAGE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  create: {
    raw: 'Send the input with a POST to this raw URI on the server instead of creating objects, using the connection from the kubeconfig.',
    filename: 'A manifest file, a directory of manifests or a URL holding the objects to create. May be repeated; use - to read from standard input.',
    'windows-line-endings': 'Only used with --edit=true: write the file opened in the editor with Windows line endings (CRLF). By default the platform\'s own line endings are used.',
  },
  'create secret generic': {
    type: 'The secret\'s type, such as Opaque (the default) or kubernetes.io/basic-auth.',
    'append-hash': 'Add a hash of the Secret\'s content to the end of its name.',
  },
  'create configmap': {
    'append-hash': 'Add a hash of the ConfigMap\'s content to the end of its name.',
  },
  'create deployment': {
    image: 'The image of a container in the Pod template. May be repeated to give the Pod several containers.',
    replicas: 'How many Pods the Deployment should run. Defaults to 1.',
    port: 'The containerPort the Deployment\'s container exposes. -1 (the default) sets no port.',
  },
  'create job': {
    image: 'The image the job\'s container runs.',
    from: 'The resource to copy the job from, written cronjob/NAME; only CronJobs are supported.',
  },
  'create cronjob': {
    image: 'The image the job\'s container runs.',
    restart: 'The restart policy of the job\'s Pods: OnFailure or Never.',
  },
  'create poddisruptionbudget': {
    selector: 'The label selector picking the Pods the budget protects. Only equality-based conditions are supported.',
  },
  expose: {
    port: 'The port the service listens on. If not given, it is copied from the resource being exposed.',
    name: 'The name of the new service. Defaults to the name of the resource being exposed.',
    type: 'The service type: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.',
    selector: 'The label selector the service uses to pick its Pods. Only equality-based conditions are supported; if empty, it is taken from the resource being exposed.',
    labels: 'Labels to put on the new service, written key=value,key=value.',
    filename: 'A manifest file, a directory of manifests or a URL naming the resource to expose.',
  },
  run: {
    image: 'The image the Pod\'s container runs.',
    port: 'The port the container exposes.',
    labels: 'Labels for the Pod, written key=value,key=value. They replace the default run=NAME label.',
    restart: 'The Pod\'s restart policy: Always (the default), OnFailure or Never.',
    stdin: 'Keep the container\'s standard input open, even when nothing is attached.',
    'leave-stdin-open': 'Leave the container\'s stdin open after the first attach ends; by default that attach closes it (stdinOnce).',
    quiet: 'Print no messages of kubectl\'s own (the attach hint, the deletion of --rm).',
    tty: 'Give the container a terminal (TTY).',
  },
  'set env': {
    all: 'Change every object of the given resource types in the namespace.',
    filename: 'A manifest file, a directory of manifests or a URL naming the resources whose environment to change.',
    from: 'A resource, such as secret/NAME or configmap/NAME, whose keys become environment variables.',
    prefix: 'A prefix added to the names of the variables imported with --from.',
    env: 'A variable to set in each container, written NAME=value. May be repeated.',
    list: 'Print the current environment, with any changes, instead of updating the objects.',
    overwrite: 'When true (the default), existing variables may be replaced; when false, a change that would replace one is refused.',
    local: 'When true, change only the objects read from the given files and print them, without contacting the API server.',
  },
  'set image': {
    all: 'Change every object of the given resource types in the namespace.',
    filename: 'A manifest file, a directory of manifests or a URL naming the resources whose images to change.',
    local: 'When true, change only the objects read from the given files and print them, without contacting the API server.',
  },
  'set resources': {
    all: 'Change every object of the given resource types in the namespace.',
    filename: 'A manifest file, a directory of manifests or a URL naming the resources whose requests and limits to change.',
    local: 'When true, change only the objects read from the given files and print them, without contacting the API server.',
  },
  explain: {
    recursive: 'List the names of all fields at every depth instead of the fields of one level with their descriptions.',
    'api-version': 'Explain the resource as defined in this API group and version, such as apps/v1.',
    output: 'How to render the schema: plaintext (the default) or plaintext-openapiv2.',
  },
  get: {
    output: 'How to print the result: json, yaml, name, wide, custom-columns, custom-columns-file, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json or jsonpath-file. Left empty, a table is printed.',
    raw: 'Read this raw URI from the server with a GET and print the response, using the connection from the kubeconfig.',
    watch: 'After printing the objects, keep watching them and print each change.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to get.',
    'no-headers': 'With the default table or custom-columns output, leave out the header line.',
  },
  edit: {
    output: 'Print the edited object in this format: json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json or jsonpath-file.',
    'output-patch': 'Print the patch that was sent if the object was changed.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to edit.',
  },
  delete: {
    output: 'Print mode; -o name prints each deleted object as type/name.',
    all: 'Delete every object of the given resource types in the namespace.',
    raw: 'Send a DELETE to this raw URI on the server, using the connection from the kubeconfig.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to delete.',
    'ignore-not-found': 'Treat an object that does not exist as deleted successfully. This is on by default when --all is given.',
    timeout: 'How long to wait for the deletion before giving up, such as 30s or 5m. 0 picks a wait based on the size of the objects.',
    wait: 'When true (the default), do not return until the deleted objects are really gone, including waiting for their finalizers.',
  },
  'rollout status': {
    watch: 'When true (the default), keep watching until the rollout finishes instead of printing the status once.',
    revision: 'Follow this particular revision. 0 (the default) means the latest revision.',
    timeout: 'How long to watch before giving up, with a unit such as 30s, 2m or 1h. 0 (the default) means wait forever.',
  },
  'rollout history': {
    revision: 'Show the details of this revision, including its Pod template. 0 (the default) lists all revisions.',
  },
  scale: {
    replicas: 'The new number of replicas. Required.',
    'resource-version': 'Only scale if the object\'s current resourceVersion equals this value.',
    all: 'Scale every object of the given resource types in the namespace.',
    timeout: 'How long to wait for the scaling to finish before giving up, such as 30s or 2m. 0 (the default) means do not wait.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to scale.',
  },
  autoscale: {
    name: 'The name of the new HorizontalPodAutoscaler. Defaults to the name of the resource being autoscaled.',
    filename: 'A manifest file, a directory of manifests or a URL naming the resource to autoscale.',
  },
  'top node': {
    'sort-by': 'Sort the nodes by cpu or memory use.',
  },
  'top pod': {
    containers: 'Show the usage of each container in the Pods as well.',
    'sort-by': 'Sort the Pods by cpu or memory use.',
  },
  cordon: {
    selector: 'Cordon every node whose labels match this label query.',
  },
  uncordon: {
    selector: 'Uncordon every node whose labels match this label query.',
  },
  drain: {
    force: 'Go on even if some Pods are not managed by a controller such as a ReplicaSet, Job or DaemonSet; such Pods are removed for good.',
    'grace-period': 'Seconds each Pod gets to shut down cleanly. A negative value (the default) uses the grace period set in the Pod.',
    selector: 'Drain every node whose labels match this label query.',
    timeout: 'How long to wait before giving up, such as 5m. 0 (the default) means wait forever.',
  },
  taint: {
    all: 'Taint every node in the cluster.',
    overwrite: 'When true, an existing taint with the same key and effect may be replaced; otherwise such a change is refused.',
    selector: 'Taint every node whose labels match this label query.',
  },
  describe: {
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to describe.',
  },
  logs: {
    container: 'Show the logs of this container. If not given, the Pod\'s default container is used.',
    prefix: 'Start each log line with its source, the Pod and container name.',
    selector: 'Show the logs of the Pods whose labels match this label query.',
  },
  exec: {
    container: 'The container to run the command in. If not given, the one named by the kubectl.kubernetes.io/default-container annotation, or else the Pod\'s first container, is used.',
    filename: 'A manifest file naming the resource to run the command in.',
    quiet: 'Print only what the remote command writes, with no messages from kubectl.',
    stdin: 'Send kubectl\'s standard input to the container.',
    tty: 'Treat standard input as a terminal (TTY).',
  },
  debug: {
    'arguments-only': 'Pass what follows -- to the container as its args rather than its command.',
    attach: 'Wait for the container to run and attach to it. Defaults to true with -i/--stdin.',
    container: 'The name of the debug container. Without it, kubectl makes one up (debugger-XXXXX).',
    'copy-to': 'Create a copy of the Pod with this name and debug the copy, leaving the Pod as it is.',
    'keep-annotations': 'With --copy-to, give the copy the Pod\'s annotations.',
    'keep-init-containers': 'With --copy-to, keep the Pod\'s init containers in the copy.',
    'keep-labels': 'With --copy-to, meant to keep the Pod\'s labels; kubectl v1.32 creates the copy without them either way.',
    'keep-liveness': 'With --copy-to, keep the containers\' liveness probes (dropped by default).',
    'keep-readiness': 'With --copy-to, keep the containers\' readiness probes (dropped by default).',
    'keep-startup': 'With --copy-to, keep the containers\' startup probes (dropped by default).',
    replace: 'With --copy-to, delete the original Pod.',
    'same-node': 'With --copy-to, schedule the copy on the node of the original.',
    'set-image': 'With --copy-to, change container images in the copy, written NAME=IMAGE (* for every container).',
    'share-processes': 'With --copy-to, turn on process namespace sharing in the copy.',
    env: 'An environment variable for the debug container, written NAME=value. May be repeated.',
    image: 'The image the debug container runs.',
    'image-pull-policy': 'The debug container\'s image pull policy.',
    profile: 'The security profile of the debug container: legacy, general, baseline, netadmin, restricted or sysadmin.',
    quiet: 'Print no messages of kubectl\'s own.',
    stdin: 'Keep the debug container\'s stdin open and attach to it (see --attach).',
    target: 'The container whose process namespace the debug container joins.',
    tty: 'Give the debug container a TTY. Needs -i/--stdin.',
  },
  attach: {
    container: 'The container to attach to. If not given, the one named by the kubectl.kubernetes.io/default-container annotation, or else the Pod\'s first container, is used.',
    quiet: 'Print only what the container writes, with no messages from kubectl.',
    stdin: 'Send the terminal\'s input to the container\'s main process (its stdin must be open).',
    tty: 'Treat standard input as a terminal (TTY); a container with a TTY gets one anyway.',
  },
  'auth can-i': {
    'all-namespaces': 'Check whether the action is allowed in every namespace.',
    quiet: 'Print nothing and report the answer through the exit code only.',
    list: 'List every action you are allowed to perform in the namespace.',
    'no-headers': 'With --list, leave out the header line.',
    subresource: 'The subresource to check, such as log for pods or scale for deployments.',
  },
  'auth whoami': {
    output: 'Print the user information in this format: json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json or jsonpath-file. Left empty, a table is printed.',
  },
  events: {
    for: 'Only show the events about this object, written TYPE/NAME such as pod/web.',
    watch: 'After printing the current events, keep watching and print new ones as they arrive.',
    'no-headers': 'With the default table output, leave out the header line.',
  },
  diff: {
    'show-managed-fields': 'Include the metadata.managedFields section in the comparison.',
    'server-side': 'Compute the changes with server-side apply instead of client-side apply.',
    prune: 'Also show objects that apply --prune would delete. Can be combined with -l; by default all such objects are shown.',
    filename: 'A manifest file, a directory of manifests or a URL holding the objects to compare with the cluster.',
    selector: 'Only compare the objects from the manifests whose labels match this label query.',
  },
  apply: {
    filename: 'A manifest file, a directory of manifests or a URL holding the configuration to apply. May be repeated; use - to read from standard input.',
    all: 'With --prune, consider every object of the given resource types in the namespace.',
    selector: 'Only apply the objects from the manifests whose labels match this label query; with --prune, also limits what may be pruned.',
    overwrite: 'When true (the default), settle conflicts between your configuration and the live object by using the values from your configuration.',
    force: 'When an object cannot be patched, delete and re-create it instead, skipping graceful termination. This can lose data.',
    timeout: 'With --force, how long to wait for the old object to be deleted before giving up. 0 picks a wait based on the size of the object.',
    wait: 'With --force, wait until the old object is really gone, including its finalizers, before re-creating it.',
  },
  patch: {
    type: 'The kind of patch given: strategic (the default, a strategic merge patch), merge (a JSON merge patch) or json (a JSON patch, a list of operations).',
    local: 'When true, apply the patch to the objects read from the given files and print the result, without contacting the API server.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to patch.',
  },
  replace: {
    filename: 'A manifest file, a directory of manifests or a URL holding the full new configuration. May be repeated; use - to read from standard input.',
    force: 'Delete the objects and create them again from the given configuration, skipping graceful termination. This can lose data.',
    timeout: 'With --force, how long to wait for the old objects to be deleted before giving up. 0 picks a wait based on the size of the objects.',
    wait: 'With --force, wait until the old objects are really gone, including their finalizers, before re-creating them.',
  },
  wait: {
    all: 'Wait on every object of the given resource types in the namespace.',
    local: 'When true, check the condition against the objects read from the given files without contacting the API server.',
    timeout: 'How long to wait before giving up, such as 30s (the default) or 5m. 0 checks once without waiting, and a negative value waits for up to a week.',
    for: 'What to wait for: create, delete, condition=NAME[=VALUE] (VALUE defaults to true and is compared case-insensitively), or jsonpath=\'{EXPR}\'=VALUE.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to wait on.',
  },
  label: {
    overwrite: 'When true, an existing label may be given a new value; otherwise such a change is refused.',
    list: 'Print the labels of the named objects instead of changing them.',
    all: 'Label every object of the given resource types in the namespace.',
    'all-namespaces': 'Look for the objects in every namespace.',
    local: 'When true, label only the objects read from the given files and print them, without contacting the API server.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to label.',
  },
  annotate: {
    overwrite: 'When true, an existing annotation may be given a new value; otherwise such a change is refused.',
    list: 'Print the annotations of the named objects instead of changing them.',
    all: 'Annotate every object of the given resource types in the namespace.',
    'all-namespaces': 'Look for the objects in every namespace.',
    local: 'When true, annotate only the objects read from the given files and print them, without contacting the API server.',
    filename: 'A manifest file, a directory of manifests or a URL naming the objects to annotate.',
    'resource-version': 'Only change the annotations if the object\'s current resourceVersion equals this value. Valid only when a single object is named.',
  },
  'api-resources': {
    output: 'How to print the list: wide adds columns such as the verbs, name prints only the resource names.',
    'sort-by': 'Sort the resources by name or by kind.',
    'api-group': 'Only list resources of this API group.',
    'no-headers': 'With the default or wide output, leave out the header line.',
  },
  'config view': {
    raw: 'Show certificate data and other secrets as they are instead of hiding them.',
    output: 'How to print the kubeconfig: yaml (the default), json, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json or jsonpath-file.',
  },
  'config get-contexts': {
    output: 'Set to name to print only the context names.',
    'no-headers': 'Leave out the header line of the table.',
  },
  version: {
    output: 'Print the version information as yaml or json instead of plain text.',
  },
};
