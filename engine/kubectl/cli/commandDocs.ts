// Long descriptions and examples for `kubectl <command> --help` (our wording
// of what each command does in kubectl v1.32), laid out as kubectl's
// templates.LongDesc and templates.Examples lay them out
// (staging/src/k8s.io/kubectl/pkg/util/templates/normalizers.go, markdown.go).

export interface CommandDoc {
  /**
   * Paragraphs separated by blank lines; the lines of a paragraph are joined
   * with spaces. A paragraph whose lines start with "* " (or "1. ") is a list,
   * one item per marker.
   */
  long: string;
  /** Printed after the long text as it is, not indented: kubectl appends its api-resources hint this way. */
  footer?: string;
  /**
   * "# comment" lines and command lines; a blank line separates two examples.
   * Left out only where kubectl v1.32 prints no Examples section either
   * (some command groups: auth, config, set, top...).
   */
  examples?: string;
}

const API_RESOURCES_HINT = 'Run "kubectl api-resources" to see every resource type the server offers.';

/** By command path without "kubectl" ("run", "rollout undo", "create secret generic"). */
export const COMMAND_DOCS: Readonly<Record<string, CommandDoc>> = {
  // ---------- create
  create: {
    long: `
      Create resources from a manifest file, a directory of manifests, or standard input.

      Manifests may be written in JSON or YAML. Creating an object that already exists is an error; "kubectl apply" updates existing objects instead.

      The subcommands below build common kinds of objects from command-line flags, with no manifest needed.
    `,
    examples: `
      # Create the objects described in pod.yaml
      kubectl create -f pod.yaml

      # Create the objects in a manifest read from standard input
      cat pod.yaml | kubectl create -f -

      # Create the objects of every manifest in a directory and its subdirectories
      kubectl create -f manifests/ -R

      # Print the object that would be created, as YAML, without creating it
      kubectl create -f pod.yaml --dry-run=client -o yaml
    `,
  },
  'create namespace': {
    long: 'Create a namespace with the given name.',
    examples: `
      # Create a namespace called dev
      kubectl create namespace dev
    `,
  },
  'create configmap': {
    long: `
      Create a ConfigMap from literal values, files, directories or env files.

      Every --from-literal, --from-file and --from-env-file adds keys to the same ConfigMap.

      A file is stored under its base name, or under the key you give as key=path. For a directory, each regular file whose name is a valid key becomes one key; subdirectories, links and other entries are skipped.
    `,
    examples: `
      # Create a ConfigMap named app-config with one key for each file in the config directory
      kubectl create configmap app-config --from-file=config/

      # Create a ConfigMap whose keys are chosen instead of taken from the file names
      kubectl create configmap app-config --from-file=app=config/app.properties --from-file=logging=config/logging.properties

      # Create a ConfigMap holding two literal values
      kubectl create configmap app-config --from-literal=mode=production --from-literal=retries=3

      # Create a ConfigMap from the KEY=VALUE lines of env files
      kubectl create configmap app-config --from-env-file=config/app.env --from-env-file=config/extra.env
    `,
  },
  'create secret': {
    long: `
      Create a Secret; the subcommand says which type.

      A generic Secret holds arbitrary key/value pairs. Its type is Opaque unless another is given.
    `,
  },
  'create secret generic': {
    long: `
      Create a Secret from literal values, files, directories or env files.

      Every source adds keys to the same Secret. A file is stored under its base name, or under the key you give as key=path; a directory adds one key for each regular file in it whose name is a valid key, and skips everything else.

      The Secret's type is Opaque unless set with --type.
    `,
    examples: `
      # Create a Secret with one key for each file in the certs directory
      kubectl create secret generic certs --from-file=certs/

      # Create a Secret whose keys are chosen instead of taken from the file names
      kubectl create secret generic ssh-keys --from-file=private=keys/id_ed25519 --from-file=public=keys/id_ed25519.pub

      # Create a Secret holding two literal values
      kubectl create secret generic db-pass --from-literal=username=admin --from-literal=password=s3cret

      # Combine a file and a literal value in one Secret
      kubectl create secret generic ssh-key --from-file=private=keys/id_ed25519 --from-literal=passphrase=s3cret

      # Create a Secret of the basic-auth type
      kubectl create secret generic web-login --type=kubernetes.io/basic-auth --from-literal=username=admin --from-literal=password=s3cret

      # Create a Secret from the KEY=VALUE lines of an env file
      kubectl create secret generic app-env --from-env-file=config/app.env
    `,
  },
  'create token': {
    long: `
      Ask the API server for a token of a service account and print it.

      The token comes from the TokenRequest API and nothing is stored in the cluster: it stays valid until it expires. It can be bound to another object, such as a Pod or a Secret, so that it stops being accepted once that object is deleted.
    `,
    examples: `
      # Print a token for the service account builder in the current namespace
      kubectl create token builder

      # Print a token for a service account of another namespace
      kubectl create token builder --namespace ci

      # Ask for a token that expires after 30 minutes
      kubectl create token builder --duration 30m

      # Ask for a token meant for a particular audience
      kubectl create token builder --audience https://vault.example.com

      # Ask for a token that is accepted only while the Secret builder-token exists
      kubectl create token builder --bound-object-kind Secret --bound-object-name builder-token
    `,
  },
  'create serviceaccount': {
    long: 'Create a service account with the given name.',
    examples: `
      # Create a service account called builder
      kubectl create serviceaccount builder
    `,
  },
  'create deployment': {
    long: `
      Create a Deployment with the given name that runs the given image.

      Each --image adds one container to the Pod template, named after its image. Arguments after -- become the command of the container; they can only be given with a single image.
    `,
    examples: `
      # Create a Deployment named web that runs nginx
      kubectl create deployment web --image=nginx

      # Create a Deployment whose container runs a command of your choice
      kubectl create deployment clock --image=busybox -- date

      # Create a Deployment that runs three replicas
      kubectl create deployment web --image=nginx --replicas=3

      # Create a Deployment whose container declares port 8080
      kubectl create deployment api --image=nginx --port=8080

      # Create a Deployment whose Pods run two containers
      kubectl create deployment web --image=nginx --image=redis
    `,
  },
  'create job': {
    long: `
      Create a Job with the given name that runs the given image.

      Arguments after -- become the command of the Job's container. In kubectl, --from=cronjob/NAME makes the Job from that CronJob's job template instead, to run a scheduled job once right away; that is not available in this simulation.
    `,
    examples: `
      # Create a Job that runs busybox
      kubectl create job hello --image=busybox

      # Create a Job that runs a command
      kubectl create job hello --image=busybox -- echo hello
    `,
  },
  'create cronjob': {
    long: `
      Create a CronJob with the given name, image and schedule.

      The schedule has the five fields of cron: minute, hour, day of the month, month and day of the week.
    `,
    examples: `
      # Create a CronJob that runs busybox every five minutes
      kubectl create cronjob ping --image=busybox --schedule="*/5 * * * *"

      # Create a CronJob that runs a command every night at two o'clock
      kubectl create cronjob nightly --image=busybox --schedule="0 2 * * *" -- date
    `,
  },
  'create poddisruptionbudget': {
    long: `
      Create a PodDisruptionBudget with the given name and selector, and either the least number of Pods that must stay available or the most that may be unavailable.

      Voluntary disruptions such as node drains respect the budget: an eviction that would break it is refused. Both numbers may be counts or percentages.
    `,
    examples: `
      # Keep at least one of the Pods labelled app=web running during voluntary disruptions
      kubectl create poddisruptionbudget web-pdb --selector=app=web --min-available=1

      # Let at most a quarter of the Pods labelled app=api be unavailable at a time
      kubectl create pdb api-pdb --selector=app=api --max-unavailable=25%
    `,
  },
  'create quota': {
    long: `
      Create a ResourceQuota with the given name, hard limits and optional scopes.

      --hard takes resource=quantity pairs separated by commas. --scopes makes the quota count only the Pods that match every scope listed, such as BestEffort or NotTerminating.
    `,
    examples: `
      # Let the namespace use at most 2 CPUs, 4Gi of memory and 10 Pods
      kubectl create quota team-quota --hard=cpu=2,memory=4Gi,pods=10

      # Allow at most 20 BestEffort Pods
      kubectl create quota best-effort --hard=pods=20 --scopes=BestEffort
    `,
  },
  'create ingress': {
    long: `
      Create an Ingress with the given name.

      Each --rule is written host/path=service:port, optionally followed by ",tls" or ",tls=SECRET" to serve the host over TLS. A path that ends in * matches as a prefix; any other path must match exactly. A rule without a host applies to every host.
    `,
    examples: `
      # Send example.com/api to port 8080 of the service api, over TLS with the certificate in the Secret api-cert
      kubectl create ingress api --rule="example.com/api=api:8080,tls=api-cert"

      # Send every path under /shop, on any host, to the service shop, using the ingress class nginx
      kubectl create ingress shop --class=nginx --rule="/shop*=shop:80"

      # Create an Ingress with an annotation
      kubectl create ingress web --class=nginx --rule="example.com/=web:80" --annotation=nginx.ingress.kubernetes.io/ssl-redirect=false

      # Route two paths of one host, written over several lines
      kubectl create ingress site --class=nginx \\
        --rule="example.com/=web:80" \\
        --rule="example.com/admin*=admin:8080"

      # Send requests that match no rule to a default backend
      kubectl create ingress site --class=nginx --default-backend=fallback:80 --rule="example.com/*=web:80"
    `,
  },
  'create priorityclass': {
    long: `
      Create a PriorityClass with the given name and value.

      A Pod that names the class gets its value as its priority: the scheduler places higher-priority Pods first and may preempt lower-priority ones to make room for them, unless the class's preemption policy is Never. At most one class may be the global default, which Pods that name no class get.
    `,
    examples: `
      # Create a priority class named high with the value 1000
      kubectl create priorityclass high --value=1000 --description="latency-sensitive services"

      # Create the class that Pods naming no class get
      kubectl create priorityclass standard --value=100 --global-default=true --description="everything else"

      # Create a class whose Pods are placed early but never preempt others
      kubectl create priorityclass high-nonpreempting --value=1000 --preemption-policy="Never"
    `,
  },
  'create service': {
    long: 'Create a Service; the subcommand says which type.',
  },
  'create service clusterip': {
    long: `
      Create a ClusterIP Service with the given name.

      The service selects the Pods labelled app=NAME. With --clusterip="None" it is headless: it gets no virtual IP, and its DNS name resolves to the addresses of its Pods.
    `,
    examples: `
      # Create a ClusterIP service named web that forwards its port 80 to port 8080 of the Pods
      kubectl create service clusterip web --tcp=80:8080

      # Create a headless service
      kubectl create service clusterip db --clusterip="None"
    `,
  },
  'create service nodeport': {
    long: `
      Create a NodePort Service with the given name.

      Besides its cluster IP, the service is reachable on a port of every node, picked from the node port range unless given with --node-port.
    `,
    examples: `
      # Create a NodePort service named web that forwards its port 80 to port 8080 of the Pods
      kubectl create service nodeport web --tcp=80:8080

      # Choose the node port yourself
      kubectl create service nodeport web --tcp=80:8080 --node-port=30080
    `,
  },
  'create service loadbalancer': {
    long: `
      Create a LoadBalancer Service with the given name.

      Where the cluster has a load balancer provider, the service gets an external address in addition to its cluster IP and node ports.
    `,
    examples: `
      # Create a LoadBalancer service named web that forwards its port 80 to port 8080 of the Pods
      kubectl create service loadbalancer web --tcp=80:8080
    `,
  },
  'create service externalname': {
    long: `
      Create an ExternalName Service with the given name.

      Such a service has no Pods and no cluster IP. The cluster's DNS answers for its name with a CNAME record for the external name, so workloads can reach a host outside the cluster through a service name.
    `,
    examples: `
      # Make the service name billing point at billing.example.com
      kubectl create service externalname billing --external-name billing.example.com
    `,
  },
  'create role': {
    long: `
      Create a Role holding one rule: the given verbs on the given resources of the namespace.

      A resource may name its API group (deployments.apps) and a subresource (pods/log). --resource-name limits the rule to the objects with those names.
    `,
    examples: `
      # Create a Role that allows reading Pods with get, list and watch
      kubectl create role pod-reader --verb=get --verb=list --verb=watch --resource=pods

      # Create a Role that allows getting two particular Pods only
      kubectl create role pod-getter --verb=get --resource=pods --resource-name=web-0 --resource-name=web-1

      # Create a Role for the Deployments of the apps group
      kubectl create role deployer --verb=get,list,update --resource=deployments.apps

      # Create a Role that allows reading Pods and their logs
      kubectl create role log-reader --verb=get,list --resource=pods,pods/log
    `,
  },
  'create clusterrole': {
    long: `
      Create a ClusterRole holding one rule.

      The rule is written as for a Role but applies in every namespace and to cluster-scoped resources. It may also allow non-resource URLs such as /healthz. In kubectl, --aggregation-rule makes a role that gathers the rules of every ClusterRole whose labels match the selector given; that is not available in this simulation.
    `,
    examples: `
      # Create a ClusterRole that allows reading nodes
      kubectl create clusterrole node-reader --verb=get,list,watch --resource=nodes

      # Create a ClusterRole for the ReplicaSets of the apps group
      kubectl create clusterrole rs-reader --verb=get,list --resource=rs.apps

      # Create a ClusterRole that allows reading two health endpoints
      kubectl create clusterrole health-reader --verb=get --non-resource-url=/healthz --non-resource-url=/readyz
    `,
  },
  'create rolebinding': {
    long: `
      Create a RoleBinding that grants a Role or a ClusterRole in the namespace.

      The subjects are given with --user, --group and --serviceaccount (written NAMESPACE:NAME), each of which may be repeated. A ClusterRole bound this way grants its permissions in the binding's namespace only.
    `,
    examples: `
      # Grant the ClusterRole edit to the user alice in the current namespace
      kubectl create rolebinding alice-edit --clusterrole=edit --user=alice

      # Grant the Role pod-reader to the service account builder of the namespace ci
      kubectl create rolebinding builder-read --role=pod-reader --serviceaccount=ci:builder
    `,
  },
  'create clusterrolebinding': {
    long: `
      Create a ClusterRoleBinding that grants a ClusterRole in the whole cluster.

      The subjects are given with --user, --group and --serviceaccount (written NAMESPACE:NAME), each of which may be repeated.
    `,
    examples: `
      # Make the users alice and bob and the group ops cluster administrators
      kubectl create clusterrolebinding ops-admin --clusterrole=cluster-admin --user=alice --user=bob --group=ops

      # Let the service account prometheus of the namespace monitoring read everything
      kubectl create clusterrolebinding prometheus-view --clusterrole=view --serviceaccount=monitoring:prometheus
    `,
  },

  // ---------- basic commands
  expose: {
    long: `
      Create a Service that sends traffic to the Pods of an existing resource.

      The resource, such as a Deployment, ReplicaSet, ReplicationController, Pod or Service, is looked up by name, and its selector (for a Pod, its labels) becomes the selector of the new Service. A Deployment or ReplicaSet can only be exposed when its selector is made of matchLabels alone.

      Without --port, the ports are taken from the resource. Without --labels, the Service gets the labels of the resource.
    `,
    examples: `
      # Expose the Deployment web on port 80, forwarding to port 8080 of its Pods
      kubectl expose deployment web --port=80 --target-port=8080

      # Expose the resource described in web.yaml in the same way
      kubectl expose -f web.yaml --port=80 --target-port=8080

      # Expose the Pod db on port 5432 as a service named postgres
      kubectl expose pod db --port=5432 --name=postgres

      # Expose the Deployment web on a port of every node as well
      kubectl expose deployment web --port=80 --type=NodePort --name=web-nodeport

      # Expose a ReplicationController's Pods on UDP port 53
      kubectl expose rc dns --port=53 --protocol=UDP --name=dns-udp

      # Expose a ReplicaSet's Pods on port 80
      kubectl expose rs web --port=80 --target-port=8080
    `,
  },
  run: {
    long: `
      Create a Pod that runs one container from the given image.

      The Pod is labelled run=NAME unless --labels is given. Arguments after -- are passed to the container: by default as the arguments of the image's entrypoint, or with --command as a command that replaces it.

      With -i the container keeps its stdin open and kubectl attaches to it once the Pod runs (-t adds a terminal); with --restart=Never or OnFailure it then waits for the Pod to finish and exits with the container's exit code, and --rm deletes the Pod at the end.
    `,
    examples: `
      # Start a Pod named web that runs nginx
      kubectl run web --image=nginx

      # Start a Pod whose container declares port 8080
      kubectl run api --image=nginx --port=8080

      # Start a Pod with two environment variables set in its container
      kubectl run api --image=nginx --env="MODE=production" --env="LOG_LEVEL=debug"

      # Start a Pod with labels of your choice
      kubectl run web --image=nginx --labels="app=web,tier=frontend"

      # Print the Pod that would be created, as YAML, without creating it
      kubectl run web --image=nginx --dry-run=client -o yaml

      # Start a Pod that runs once and is not restarted when its container exits
      kubectl run hello --image=busybox --restart=Never -- echo hello

      # Pass arguments to the image's own entrypoint
      kubectl run echo --image=hashicorp/http-echo -- -text=hello

      # Run a command of your choice instead of the image's
      kubectl run clock --image=busybox --command -- sh -c "while true; do date; sleep 5; done"

      # Start a shell in a new Pod, type into it, and delete the Pod when the shell exits
      kubectl run -it --rm debug --image=busybox --restart=Never -- sh
    `,
  },
  set: {
    long: `
      Change particular settings of existing objects.

      The subcommands update the container images, the environment variables, or the resource requests and limits of Pods and of the objects with a Pod template.
    `,
  },
  'set env': {
    long: `
      Add, change, remove or list the environment variables of the containers in Pod templates.

      Variables are given as NAME=value arguments, and NAME- removes one; "-e -" reads more from standard input. --from imports the keys of a Secret or ConfigMap (only those named with --keys, if given), optionally with a --prefix added to their names. --list prints the variables instead of changing them.

      It works on the objects with a Pod template, such as Deployments, ReplicaSets, ReplicationControllers, DaemonSets, StatefulSets, Jobs and CronJobs; Pods can be listed.
    `,
    examples: `
      # Add the variable STORAGE_DIR to the Deployment registry
      kubectl set env deployment/registry STORAGE_DIR=/data

      # List the variables of the Deployment registry
      kubectl set env deployment/registry --list

      # List the variables of every Pod in the namespace
      kubectl set env pods --all --list

      # Print the changed Deployment as YAML without changing it on the server
      kubectl set env deployment/registry STORAGE_DIR=/data --dry-run=client -o yaml

      # Set ENV=prod in every container of every ReplicationController in the namespace
      kubectl set env rc --all ENV=prod

      # Import every key of the Secret db-credentials as a variable
      kubectl set env --from=secret/db-credentials deployment/api

      # Import the keys of a ConfigMap, adding APP_ in front of their names
      kubectl set env --from=configmap/api-config --prefix=APP_ deployment/api

      # Import only one key of a ConfigMap
      kubectl set env --keys=log-level --from=configmap/api-config deployment/api

      # Remove the variable DEBUG from the container named app of every Deployment
      kubectl set env deployments --all --containers="app" DEBUG-

      # Remove the variable DEBUG from the Deployment in a file and update it on the server
      kubectl set env -f deploy.yaml DEBUG-

      # Copy the variables of your shell whose names start with APP_ into a Deployment
      env | grep ^APP_ | kubectl set env -e - deployment/api
    `,
  },
  'set image': {
    long: `
      Change the images of containers in existing objects.

      Images are given as CONTAINER=IMAGE pairs; the container name * stands for every container. It works on Pods and on the objects with a Pod template: Deployments, ReplicaSets, ReplicationControllers, DaemonSets, StatefulSets, Jobs and CronJobs.
    `,
    examples: `
      # Set the image of the nginx container of the Deployment web to nginx:1.27 and that of its sidecar container to busybox
      kubectl set image deployment/web sidecar=busybox nginx=nginx:1.27

      # Set the image of the nginx container of every Deployment and ReplicationController
      kubectl set image deployments,rc nginx=nginx:1.27 --all

      # Set the image of every container of the DaemonSet logs
      kubectl set image daemonset logs *=fluentd:v1.17

      # Change the image in a local file and print the result as YAML, without contacting the server
      kubectl set image -f web.yaml nginx=nginx:1.27 --local -o yaml
    `,
  },
  'set resources': {
    long: `
      Set the CPU and memory requests and limits of the containers in objects with a Pod template.

      The request is the amount the scheduler sets aside for a container on its node; the limit is the most it may use. When a resource is given a limit but no request, the request defaults to the limit.
    `,
    examples: `
      # Limit the nginx container of the Deployment web to 200m of CPU and 512Mi of memory
      kubectl set resources deployment web -c=nginx --limits=cpu=200m,memory=512Mi

      # Set both requests and limits for every container of the Deployment web
      kubectl set resources deployment web --limits=cpu=500m,memory=512Mi --requests=cpu=100m,memory=256Mi

      # Change the limits in a local file and print the result as YAML, without contacting the server
      kubectl set resources -f web.yaml --limits=cpu=200m,memory=512Mi --local -o yaml
    `,
  },
  explain: {
    long: `
      Show the documentation of a resource type or of one of its fields.

      A field is named by its path from the type, such as pods.spec.containers; the output gives its type, its description and the fields below it. The documentation comes from the OpenAPI schema the server publishes, so it matches the API versions the cluster serves.
    `,
    footer: API_RESOURCES_HINT,
    examples: `
      # Show the documentation of Pods and their top-level fields
      kubectl explain pods

      # List every field of Pods, at every depth
      kubectl explain pods --recursive

      # Show the documentation of Deployments as the apps/v1 API defines them
      kubectl explain deployments --api-version=apps/v1

      # Show the documentation of one field
      kubectl explain pods.spec.containers

      # Show the documentation in the older OpenAPI v2 layout
      kubectl explain deployment --output=plaintext-openapiv2
    `,
  },
  get: {
    long: `
      List objects of one or more types, or show particular ones.

      By default a table of the most useful columns is printed for the objects in the current namespace. -A looks in every namespace, -l and --field-selector keep only the matching objects, and -o chooses another format, such as wide, yaml, json, name, jsonpath or custom-columns.

      With --watch, the command keeps running after the first listing and prints each change as it happens.
    `,
    footer: API_RESOURCES_HINT,
    examples: `
      # List the Pods in the current namespace
      kubectl get pods

      # List the Pods with more columns, such as the node each runs on
      kubectl get pods -o wide

      # Show the ReplicationController named web
      kubectl get replicationcontroller web

      # List the Deployments of version v1 of the apps group, as JSON
      kubectl get deployments.v1.apps -o json

      # Show one Pod as JSON
      kubectl get -o json pod web-0

      # Show the object described in pod.yaml as JSON
      kubectl get -f pod.yaml -o json

      # Print only the phase of a Pod, with a Go template
      kubectl get -o template pod/web-0 --template={{.status.phase}}

      # Print columns of your choice
      kubectl get pod web-0 -o custom-columns=CONTAINER:.spec.containers[0].name,IMAGE:.spec.containers[0].image

      # List the ReplicationControllers and Services together
      kubectl get rc,services

      # Show several objects, each named by type and name
      kubectl get deploy/web service/web pods/web-0

      # Show the status subresource of a Pod
      kubectl get pod web-0 --subresource status

      # List the Deployments in the namespace backend
      kubectl get deployments.apps --namespace backend

      # List the Pods in every namespace
      kubectl get pods --all-namespaces

      # List the running Pods labelled app=web, then keep printing their changes
      kubectl get pods -l app=web --field-selector=status.phase=Running --watch

      # List the Pods, oldest first
      kubectl get pods --sort-by=.metadata.creationTimestamp
    `,
  },
  edit: {
    long: `
      Open objects in an editor and save your changes back to the server.

      The objects are fetched and shown as YAML, or as JSON with -o json, in the version of the API used to fetch them; to edit another version, name the type with its version and group. When the edited text is saved, the changes are sent to the server, one object at a time. If a change is refused, for example because it is invalid, the editor opens again with the error so that you can fix it.

      Here the objects open in the page's editor.
    `,
    examples: `
      # Edit the service named web
      kubectl edit svc/web

      # Edit the Job backup as version v1 of the batch API, in JSON
      kubectl edit job.v1.batch/backup -o json

      # Edit the Deployment web in YAML and record the result in its last-applied-configuration annotation
      kubectl edit deployment/web -o yaml --save-config

      # Edit the status subresource of the Deployment web
      kubectl edit deployment web --subresource='status'
    `,
  },
  delete: {
    long: `
      Delete objects named by manifest files, by type and name, or by type and label selector.

      Objects that shut down gracefully, such as Pods, are given time to stop: their own grace period, or the one set with --grace-period; --now stands for one second. With --force and --grace-period=0 they are removed from the API at once, without waiting for their containers to stop, which can leave processes running on the node for a while.

      By default the command waits until the objects are gone, and dependents such as the Pods of a ReplicaSet are deleted in the background. There is no check of resourceVersion: a change someone makes just before the deletion is lost with the object.
    `,
    examples: `
      # Delete the object described in pod.yaml
      kubectl delete -f pod.yaml

      # Delete the objects described in a manifest read from standard input
      cat pod.yaml | kubectl delete -f -

      # Delete the Pods and Services named web and db
      kubectl delete pod,service web db

      # Delete the Pods and Services labelled app=web
      kubectl delete pods,services -l app=web

      # Delete a Pod, giving it one second to stop
      kubectl delete pod web --now

      # Remove a Pod from the API at once, without waiting for it to stop
      kubectl delete pod web --grace-period=0 --force

      # Delete every Pod in the namespace
      kubectl delete pods --all

      # Delete a Deployment but keep its ReplicaSets and Pods
      kubectl delete deployment web --cascade=orphan
    `,
  },

  // ---------- deploy
  rollout: {
    long: `
      Manage the rollouts of workloads: follow their progress, look at their history, roll back, restart, or pause and resume them.

      The subcommands work on these types:

      * deployments
      * daemonsets
      * statefulsets

      Only Deployments can be paused and resumed.
    `,
    examples: `
      # Roll the Deployment web back to its previous revision
      kubectl rollout undo deployment/web

      # Follow the rollout of the DaemonSet logs
      kubectl rollout status daemonset/logs

      # Replace the Pods of the Deployment web with a new rollout
      kubectl rollout restart deployment/web

      # Restart the Deployments labelled app=web
      kubectl rollout restart deployment --selector=app=web
    `,
  },
  'rollout status': {
    long: `
      Show the progress of a workload's latest rollout.

      By default the command keeps watching until the rollout is complete, printing a line as the replicas are updated; --watch=false prints the state once. If a newer rollout starts meanwhile, the command follows that one instead. With --revision it follows the given revision and fails if another replaces it.
    `,
    examples: `
      # Follow the rollout of the Deployment web until it completes
      kubectl rollout status deployment/web

      # Print the state of the StatefulSet db's rollout once
      kubectl rollout status statefulset/db --watch=false

      # Give up if the rollout has not completed within two minutes
      kubectl rollout status deployment/web --timeout=2m
    `,
  },
  'rollout history': {
    long: `
      List the revisions of a workload, or show one of them in detail.

      A Deployment keeps its revisions as ReplicaSets, and a DaemonSet or StatefulSet as ControllerRevisions; each is listed with the change cause recorded for it, if any. --revision prints the Pod template of that revision.
    `,
    examples: `
      # List the revisions of the Deployment web
      kubectl rollout history deployment/web

      # Show revision 3 of the DaemonSet logs
      kubectl rollout history daemonset/logs --revision=3
    `,
  },
  'rollout undo': {
    long: `
      Roll a workload back to an earlier revision.

      Without --to-revision, the revision before the current one is restored. The Pod template restored becomes the newest revision.
    `,
    examples: `
      # Roll the Deployment web back to its previous revision
      kubectl rollout undo deployment/web

      # Roll the DaemonSet logs back to revision 3
      kubectl rollout undo daemonset/logs --to-revision=3

      # Check a roll back with the server without making it
      kubectl rollout undo --dry-run=server deployment/web
    `,
  },
  'rollout restart': {
    long: `
      Replace the Pods of a workload with a new rollout.

      The command sets the kubectl.kubernetes.io/restartedAt annotation of the Pod template to the current time. The controller then replaces the Pods as for any other change of the template, following the workload's update strategy.
    `,
    examples: `
      # Restart every Deployment in the namespace staging
      kubectl rollout restart deployment -n staging

      # Restart the Deployment web
      kubectl rollout restart deployment/web

      # Restart the DaemonSet logs
      kubectl rollout restart daemonset/logs

      # Restart the Deployments labelled app=web
      kubectl rollout restart deployment --selector=app=web
    `,
  },
  'rollout pause': {
    long: `
      Pause the rollouts of a Deployment.

      While it is paused, changes to the Deployment's Pod template are kept but not rolled out, so that several changes can be made and then rolled out together with "kubectl rollout resume". Only Deployments can be paused.
    `,
    examples: `
      # Pause the Deployment web; its Pods keep running, and changes to its template wait until it is resumed
      kubectl rollout pause deployment/web
    `,
  },
  'rollout resume': {
    long: `
      Resume a paused Deployment.

      The Deployment controller acts on the Pod template again and rolls out whatever was changed while the Deployment was paused. Only Deployments can be paused and resumed.
    `,
    examples: `
      # Resume the paused Deployment web
      kubectl rollout resume deployment/web
    `,
  },
  scale: {
    long: `
      Set the number of replicas of a Deployment, ReplicaSet, ReplicationController or StatefulSet.

      Preconditions make the change conditional: with --current-replicas or --resource-version, the object is scaled only if it has that many replicas, or that resourceVersion, when the new size is sent.
    `,
    examples: `
      # Scale the ReplicaSet web to 3 replicas
      kubectl scale --replicas=3 rs/web

      # Scale the object described in web.yaml to 3 replicas
      kubectl scale --replicas=3 -f web.yaml

      # Scale the Deployment mysql to 3 replicas only if it has 2 now
      kubectl scale --current-replicas=2 --replicas=3 deployment/mysql

      # Scale several ReplicationControllers at once
      kubectl scale --replicas=5 rc/app1 rc/app2 rc/app3

      # Scale the StatefulSet db to 3 replicas
      kubectl scale --replicas=3 statefulset/db
    `,
  },
  autoscale: {
    long: `
      Create a HorizontalPodAutoscaler for a Deployment, ReplicaSet, StatefulSet or ReplicationController.

      The autoscaler keeps the number of replicas of the resource between --min and --max, adding or removing Pods to bring their average CPU use close to the target given with --cpu-percent, a percentage of what they request. Without a target, the autoscaler's default policy applies.
    `,
    examples: `
      # Keep between 2 and 10 replicas of the Deployment web, with the default policy
      kubectl autoscale deployment web --min=2 --max=10

      # Keep at most 5 replicas of the ReplicationController app, aiming at 80% CPU use
      kubectl autoscale rc app --max=5 --cpu-percent=80
    `,
  },

  // ---------- cluster management
  certificate: {
    long: `
      Approve or deny certificate signing requests.

      In kubectl, "certificate approve" and "certificate deny" add the Approved or Denied condition to CertificateSigningRequests, so that a signer issues the certificate or refuses to.

      This command is not available in this simulation.
    `,
  },
  'cluster-info': {
    long: `
      Print the address of the control plane and of the cluster services labelled kubernetes.io/cluster-service=true.

      kubectl's "cluster-info dump", which gathers the state of the cluster for troubleshooting, is not available in this simulation.
    `,
    examples: `
      # Print the addresses of the control plane and the cluster services
      kubectl cluster-info
    `,
  },
  top: {
    long: `
      Show the CPU and memory use of nodes or Pods.

      The figures come from the Metrics API, so a metrics server must be running in the cluster. They are samples it collected a little while ago, not live values.
    `,
  },
  'top node': {
    long: `
      Show the CPU and memory use of nodes.

      Each figure is given as an amount and as a percentage of what the node can allocate to Pods, or of its whole capacity with --show-capacity.
    `,
    examples: `
      # Show the use of every node
      kubectl top node

      # Show the use of the node named node-1
      kubectl top node node-1

      # Show the nodes busiest in CPU first
      kubectl top node --sort-by=cpu
    `,
  },
  'top pod': {
    long: `
      Show the CPU and memory use of Pods.

      The metrics pipeline collects figures periodically, so a Pod that has just started may have none for a little while.
    `,
    examples: `
      # Show the use of the Pods in the current namespace
      kubectl top pod

      # Show the use of the Pods in the namespace kube-system
      kubectl top pod --namespace=kube-system

      # Show the use of the Pod web-0 and of each of its containers
      kubectl top pod web-0 --containers

      # Show the use of the Pods labelled app=web
      kubectl top pod -l app=web

      # Show the Pods using the most memory first
      kubectl top pod --sort-by=memory
    `,
  },
  cordon: {
    long: `
      Mark a node as unschedulable, so that the scheduler places no new Pods on it.

      The Pods already on the node keep running; "kubectl drain" moves them away, and "kubectl uncordon" makes the node schedulable again.
    `,
    examples: `
      # Mark the node node-1 as unschedulable
      kubectl cordon node-1

      # Mark every node labelled disk=hdd as unschedulable
      kubectl cordon -l disk=hdd
    `,
  },
  uncordon: {
    long: 'Mark a node as schedulable again, so that the scheduler may place new Pods on it.',
    examples: `
      # Mark the node node-1 as schedulable
      kubectl uncordon node-1
    `,
  },
  drain: {
    long: `
      Prepare a node for maintenance: mark it unschedulable and move its Pods away.

      After cordoning the node, the command evicts its Pods through the Eviction API, which respects PodDisruptionBudgets, or deletes them when --disable-eviction is given. Mirror Pods, which the API server cannot delete, are left alone.

      It does not go on if the node has Pods managed by a DaemonSet (unless --ignore-daemonsets is given; they are then left in place, since their controller would recreate them at once), Pods that no controller manages (unless --force is given; they are then gone for good), or Pods with emptyDir volumes (unless --delete-emptydir-data is given, as their data is lost).

      The command waits for the evicted Pods to terminate. When the maintenance is over, "kubectl uncordon" returns the node to service.
    `,
    examples: `
      # Drain the node node-1, leaving the Pods of DaemonSets in place
      kubectl drain node-1 --ignore-daemonsets

      # Drain it even if some Pods have no controller or use emptyDir volumes
      kubectl drain node-1 --ignore-daemonsets --force --delete-emptydir-data

      # Drain it, giving each Pod 15 minutes to stop
      kubectl drain node-1 --ignore-daemonsets --grace-period=900

      # Show which Pods would be evicted, without evicting them
      kubectl drain node-1 --ignore-daemonsets --dry-run=client
    `,
  },
  taint: {
    long: `
      Add, change or remove the taints of nodes.

      * A taint is written key=value:effect, or key:effect when it has no value.
      * The key and the value follow the rules for label keys and values: letters, digits, hyphens, dots and underscores, beginning with a letter or digit; a key may begin with a DNS subdomain and a /, as in example.com/gpu.
      * The effect is NoSchedule, PreferNoSchedule or NoExecute.
      * A trailing - removes taints: key:effect- removes that taint, key- every taint with the key.
      * Changing the value of an existing taint needs --overwrite.
      * Only nodes have taints.
    `,
    examples: `
      # Keep Pods off the node node-1 unless they tolerate dedicated=gpu
      kubectl taint nodes node-1 dedicated=gpu:NoSchedule

      # Give that taint another value
      kubectl taint nodes node-1 dedicated=ml:NoSchedule --overwrite

      # Remove the taint with the key dedicated and the effect NoSchedule
      kubectl taint nodes node-1 dedicated:NoSchedule-

      # Remove every taint with the key dedicated
      kubectl taint nodes node-1 dedicated-

      # Taint every node labelled disk=hdd
      kubectl taint node -l disk=hdd slow=true:PreferNoSchedule

      # Evict the Pods that do not tolerate a taint with no value
      kubectl taint nodes node-1 maintenance:NoExecute
    `,
  },

  // ---------- troubleshooting and debugging
  describe: {
    long: `
      Show a detailed description of objects, along with related information such as their events.

      Objects are chosen by type and name, by type and name prefix, by label selector, or all objects of a type. A name is first looked up exactly; if there is no such object, every object of the type whose name begins with it is described.
    `,
    footer: API_RESOURCES_HINT,
    examples: `
      # Describe the node node-1
      kubectl describe nodes node-1

      # Describe the Pod web-0
      kubectl describe pods/web-0

      # Describe the object described in pod.yaml
      kubectl describe -f pod.yaml

      # Describe every Pod in the namespace
      kubectl describe pods

      # Describe the Pods labelled app=web
      kubectl describe pods -l app=web

      # Describe every Pod whose name begins with web-, such as the Pods of the StatefulSet web
      kubectl describe pods web-
    `,
  },
  logs: {
    long: `
      Print the logs of a container in a Pod, or of the Pods of a workload or selector.

      The container may be left out: the one named by the kubectl.kubernetes.io/default-container annotation, or else the first, is used. A resource such as deployment/NAME or job/NAME stands for one of its Pods, or for all of them with --all-pods.
    `,
    examples: `
      # Print the logs of the Pod web, which has a single container
      kubectl logs web

      # Begin each line with the Pod and container it comes from
      kubectl logs web --prefix

      # Print at most 500 bytes of logs
      kubectl logs web --limit-bytes=500

      # Print the logs of every container of the Pod web
      kubectl logs web --all-containers=true

      # Print the logs of every Pod of the Deployment web
      kubectl logs deployment/web --all-pods=true

      # Print the logs of every container of the Pods labelled app=web
      kubectl logs -l app=web --all-containers=true

      # Print the logs of the previous run of the container app of the Pod web-0, after a crash
      kubectl logs -p -c app web-0

      # Follow the logs of the container app of the Pod web-0 as they are written
      kubectl logs -f -c app web-0

      # Print the last 20 lines
      kubectl logs --tail=20 web

      # Print what was written in the last hour
      kubectl logs --since=1h web

      # Print what was written since a moment in time, with timestamps
      kubectl logs web --since-time=2024-08-30T06:00:00Z --timestamps=true

      # Print the logs of the Pod of the Job backup
      kubectl logs job/backup

      # Print the logs of the container nginx of a Pod of the Deployment web
      kubectl logs deployment/web -c nginx
    `,
  },
  attach: {
    long: `
      Connect to the main process of a running container and show its output as it is written.

      The container named by the kubectl.kubernetes.io/default-container annotation, or else the first, is used. A resource such as rs/NAME stands for one of its Pods.

      With -i the terminal becomes the process's stdin, which the container must keep open (stdin: true, as kubectl run -i makes it); with -t as well, and a container that has a TTY, keys go to it raw. The process printed its prompt before anyone attached, so pressing Enter shows a fresh one.
    `,
    examples: `
      # Show the output of the Pod web as it is written
      kubectl attach web

      # Type into the shell that is the main process of the Pod box, with a terminal
      kubectl attach box -c box -i -t

      # Show the output of a Pod of the ReplicaSet web
      kubectl attach rs/web
    `,
  },
  exec: {
    long: `
      Run a command in a container of a running Pod.

      Everything after -- is the command and its arguments, passed as they are: no shell reads them unless the command is one. Without -c, the container named by the kubectl.kubernetes.io/default-container annotation, or else the first, is used. A resource such as deployment/NAME or service/NAME stands for one of its Pods.
    `,
    examples: `
      # Run date in the Pod web
      kubectl exec web -- date

      # Run date in the container sidecar of the Pod web
      kubectl exec web -c sidecar -- date

      # List /etc in detail; flags after -- belong to the command, not to kubectl
      kubectl exec web -- ls -la /etc

      # Print the environment of a Pod of the Deployment web
      kubectl exec deploy/web -- env

      # Print the host name of a Pod of the service web
      kubectl exec svc/web -- hostname

      # Run a shell command line
      kubectl exec web -- sh -c 'echo $HOSTNAME; date'

      # Open an interactive shell in the Pod web, with a terminal
      kubectl exec -it web -- sh
    `,
  },
  'port-forward': {
    long: `
      Forward connections made to local ports to ports of a Pod.

      The Pod is named directly or through a resource such as deployment/NAME or service/NAME, which stands for one of its Pods. Ports are written LOCAL:REMOTE, or REMOTE alone to use the same local port; :REMOTE picks a free local port. For a service, a service port, by number or name, is forwarded to its target port. Forwarding stops when the Pod goes away.

      This command is not available in this simulation.
    `,
    examples: `
      # Forward the local ports 8080 and 9090 to the same ports of the Pod web
      kubectl port-forward pod/web 8080 9090

      # Forward them to a Pod of the Deployment web
      kubectl port-forward deployment/web 8080 9090

      # Forward the local port 8443 to the port named https of the service web
      kubectl port-forward service/web 8443:https

      # Forward the local port 8888 to port 80 of the Pod web
      kubectl port-forward pod/web 8888:80

      # Forward a free local port to port 80 of the Pod web
      kubectl port-forward pod/web :80
    `,
  },
  proxy: {
    long: `
      Run a local HTTP server that passes requests on to the Kubernetes API server with your credentials.

      By default it listens on 127.0.0.1:8001. It can also serve static files from a local directory under a path prefix of their own.

      This command is not available in this simulation.
    `,
    examples: `
      # Serve the API on localhost:8001, so that "curl localhost:8001/api/v1/pods" lists Pods
      kubectl proxy
    `,
  },
  cp: {
    long: `
      Copy files and directories between the local machine and a container.

      A path in a container is written POD:PATH, or NAMESPACE/POD:PATH. The copy relies on a tar program in the container's image; for links, wildcards or file modes, running tar yourself through "kubectl exec" gives more control.

      This command is not available in this simulation.
    `,
    examples: `
      # Copy the local directory config to /etc/app in the Pod web
      kubectl cp ./config web:/etc/app

      # Copy a file from the Pod web to the local directory
      kubectl cp web:/var/log/app.log ./app.log

      # Copy a local directory into the Pod web of the namespace staging
      kubectl cp ./config staging/web:/etc/app
    `,
  },
  auth: {
    long: 'Find out what you are allowed to do, and who the API server takes you for.',
  },
  'auth can-i': {
    long: `
      Ask the API server whether an action is allowed, and print yes or no.

      VERB is an API verb such as get, list, watch, create or delete. TYPE is a resource type, written as for "kubectl get" and optionally with its API group; TYPE/NAME asks about a single object. NONRESOURCEURL, a path beginning with /, asks about an endpoint that is not a resource. With the global --as flag, it tells what another user or service account may do.

      The exit code is 0 for yes and 1 for no.
    `,
    examples: `
      # Check whether you may create Pods in every namespace
      kubectl auth can-i create pods --all-namespaces

      # Check whether you may list the Deployments of the current namespace
      kubectl auth can-i list deployments.apps

      # Check whether the service account builder of the namespace dev may list Pods in the namespace prod
      # (you need permission to impersonate it)
      kubectl auth can-i list pods --as=system:serviceaccount:dev:builder -n prod

      # Check whether you may do everything in the current namespace
      kubectl auth can-i '*' '*'

      # Check whether you may get the Job named backup in the namespace ops
      kubectl auth can-i get jobs.batch/backup -n ops

      # Check whether you may read the logs of Pods
      kubectl auth can-i get pods --subresource=log

      # Check whether you may read the /healthz endpoint
      kubectl auth can-i get /healthz

      # List everything you may do in the namespace dev
      kubectl auth can-i --list --namespace=dev
    `,
  },
  'auth whoami': {
    long: `
      Show the user name, groups and extra attributes the API server sees for your requests.

      This helps when authentication goes through a token webhook, an authenticating proxy or an OIDC provider, and the kubeconfig alone does not tell who you are. The answer comes from the SelfSubjectReview API.
    `,
    examples: `
      # Show who you are
      kubectl auth whoami

      # Show it as JSON
      kubectl auth whoami -o json
    `,
  },
  debug: {
    long: `
      Start debugging sessions for workloads and nodes.

      For a Pod, debug adds an ephemeral container running the given image (through the Pod's ephemeralcontainers subresource) and, with -i, attaches to it once it runs. With --target the container joins the process namespace of that container, when the runtime supports it. The profile sets what the container may do: legacy and general leave it as it is, restricted drops every capability, netadmin adds NET_ADMIN and NET_RAW, sysadmin makes it privileged.

      With --copy-to it creates a copy of the Pod instead, with the debug container added or, when -c names one of its containers, that container changed; the copy loses its node (unless --same-node), its probes and its labels, and --set-image changes images. In kubectl, debug can also start a Pod in a node's host namespaces (node/NAME); that is not available in this simulation.
    `,
    examples: `
      # Start a shell in a new ephemeral container of the Pod web, with a terminal
      kubectl debug -it web --image=busybox --profile=general

      # The same, sharing the process namespace of its container app
      kubectl debug -it web --image=busybox --target=app

      # Add an ephemeral container that runs a command, without attaching to it
      kubectl debug web --image=busybox --profile=general -c probe -- sleep 3600

      # Debug a copy of the Pod web with a shell in place of the command of its container app
      kubectl debug web -it --copy-to=web-debug --container=app -- sh

      # Start a copy of the Pod web with every container running busybox
      kubectl debug web --copy-to=web-debug --set-image=*=busybox
    `,
  },
  events: {
    long: `
      List events, oldest first.

      Events record what controllers, the scheduler and the kubelets did or ran into: placing Pods, pulling images, failing probes and so on. They are listed for the current namespace, for every namespace with -A, or for one object with --for; --types keeps only Normal or Warning events.
    `,
    examples: `
      # List the recent events of the current namespace
      kubectl events

      # List the recent events of every namespace
      kubectl events --all-namespaces

      # List the events about the Pod web
      kubectl events --for pod/web

      # List the events as YAML
      kubectl events -oyaml

      # List only the warnings
      kubectl events --types=Warning
    `,
  },

  // ---------- advanced
  diff: {
    long: `
      Show how the objects in the given manifests differ from the live objects: what "kubectl apply" would change.

      For each object, the live version is compared with the result of applying the manifest, as the server computes it in a dry run, and the difference is printed as a unified diff of the two in YAML. An object that does not exist yet shows as wholly new.

      The exit code is 0 when nothing differs, 1 when something does, and more than 1 when kubectl or diff failed.
    `,
    examples: `
      # Compare the object in pod.yaml with the cluster
      kubectl diff -f pod.yaml

      # Compare the objects in a manifest read from standard input
      cat service.yaml | kubectl diff -f -

      # Compare every manifest in a directory and its subdirectories
      kubectl diff -f manifests/ -R
    `,
  },
  apply: {
    long: `
      Create or update objects so that they match the configuration in the given manifests.

      Objects that do not exist are created. For an existing object, apply compares the new configuration with the one applied last time, which it keeps in the kubectl.kubernetes.io/last-applied-configuration annotation, and with the live object, and patches only what you changed, leaving the fields others set alone. An object should therefore be created by apply, or by "kubectl create --save-config".

      Manifests may be written in JSON or YAML.
    `,
    examples: `
      # Apply the configuration in pod.json
      kubectl apply -f ./pod.json

      # Apply the configuration in a manifest read from standard input
      cat pod.json | kubectl apply -f -

      # Apply every manifest in a directory and its subdirectories
      kubectl apply -f manifests/ -R

      # Check the change with the server without making it
      kubectl apply -f web.yaml --dry-run=server

      # Apply and print the resulting object as YAML
      kubectl apply -f web.yaml -o yaml
    `,
  },
  patch: {
    long: `
      Change fields of objects with a patch.

      Three kinds of patch are accepted: a strategic merge patch (the default), which merges lists such as containers by their key fields; a JSON merge patch (--type merge), in which a list replaces the old one whole; and a JSON patch (--type json), a list of operations. The patch may be written in JSON or YAML.

      Custom resources do not accept strategic merge patches.
    `,
    examples: `
      # Mark the node node-1 unschedulable with a strategic merge patch
      kubectl patch node node-1 -p '{"spec":{"unschedulable":true}}'

      # The same, with the patch written in YAML
      kubectl patch node node-1 -p 'spec: {unschedulable: true}'

      # Patch the object described in node.json
      kubectl patch -f node.json -p '{"spec":{"unschedulable":true}}'

      # Change the image of a container; the name identifies the container to merge with
      kubectl patch pod web -p '{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}'

      # Change the image of the first container with a JSON patch
      kubectl patch pod web --type='json' -p='[{"op": "replace", "path": "/spec/containers/0/image", "value":"nginx:1.27"}]'

      # Change the replicas of a Deployment through its scale subresource
      kubectl patch deployment web --subresource='scale' --type='merge' -p '{"spec":{"replicas":2}}'

      # Apply a patch kept in a file
      kubectl patch deployment web --patch-file=patch.yaml
    `,
  },
  replace: {
    long: `
      Replace objects with the configuration in the given manifests.

      The manifest must hold the whole object, since what it leaves out is removed; "kubectl get TYPE NAME -o yaml" gives a complete copy to start from. If the manifest carries a resourceVersion, the replace fails when the object has changed since.

      With --force, the objects are deleted and created again instead.
    `,
    examples: `
      # Replace a Pod with the configuration in pod.json
      kubectl replace -f ./pod.json

      # Replace it with a manifest read from standard input
      cat pod.json | kubectl replace -f -

      # Change the image tag of a single-container Pod to 1.27
      kubectl get pod web -o yaml | sed 's/\\(image: nginx\\):.*$/\\1:1.27/' | kubectl replace -f -

      # Delete the object and create it again from the manifest
      kubectl replace --force -f ./pod.json
    `,
  },
  wait: {
    long: `
      Wait until a condition holds for one or many objects.

      --for says what to wait for: a status condition (condition=Ready, or condition=Ready=false for another value), the value of a field read with a JSONPath expression (jsonpath='{.status.phase}'=Running, or just the field's presence), or the objects being created (create) or deleted (delete).

      A line is printed for each object once its condition holds. The command fails if --timeout passes first.
    `,
    examples: `
      # Wait until the Pod web has the condition Ready
      kubectl wait --for=condition=Ready pod/web

      # Wait until its condition Ready is false; values are compared without regard to case
      kubectl wait --for=condition=Ready=false pod/web

      # Wait until the phase of the Pod web is Running
      kubectl wait --for=jsonpath='{.status.phase}'=Running pod/web

      # Wait until the Pod web is ready, reading its conditions with a filter
      kubectl wait --for='jsonpath={.status.conditions[?(@.type=="Ready")].status}=True' pod/web

      # Wait until the service web has a load balancer ingress
      kubectl wait --for=jsonpath='{.status.loadBalancer.ingress}' service/web

      # Wait up to 30 seconds for the Secret app-config to be created
      kubectl wait --for=create secret/app-config --timeout=30s

      # Delete the Pod web, then wait up to a minute for it to be gone
      kubectl delete pod/web --wait=false
      kubectl wait --for=delete pod/web --timeout=60s

      # Wait until every Deployment in the namespace is available
      kubectl wait --for=condition=Available deployment --all
    `,
  },
  kustomize: {
    long: `
      Build the objects a kustomization.yaml file describes and print them as YAML.

      DIR is a directory that holds a kustomization.yaml, or the URL of a Git repository with a path in it; without one, the current directory is used. The output can be piped to "kubectl apply -f -".

      This command is not available in this simulation.
    `,
    examples: `
      # Build the kustomization in the current directory
      kubectl kustomize

      # Build the kustomization of an overlay
      kubectl kustomize overlays/production

      # Build an overlay and apply the result
      kubectl kustomize overlays/production | kubectl apply -f -
    `,
  },

  // ---------- settings
  label: {
    long: `
      Add, change or remove the labels of objects.

      * Labels are given as KEY=VALUE; KEY- removes the label.
      * A key and a value are each at most 63 characters of letters, digits, hyphens, dots and underscores, beginning and ending with a letter or digit. A key may begin with a DNS subdomain and a /, as in example.com/tier.
      * Giving an existing label a new value needs --overwrite.
      * With --resource-version, the change is made only if the object still has that resourceVersion.
    `,
    examples: `
      # Add the label unhealthy=true to the Pod web
      kubectl label pods web unhealthy=true

      # Set the label status of the Pod web to unhealthy, replacing any value it had
      kubectl label --overwrite pods web status=unhealthy

      # Label every Pod in the namespace
      kubectl label pods --all status=unhealthy

      # Label the object described in pod.json
      kubectl label -f pod.json status=unhealthy

      # Label the Pod web only if its resourceVersion is still 1
      kubectl label pods web status=unhealthy --resource-version=1

      # Remove the label status from the Pod web; no --overwrite needed
      kubectl label pods web status-

      # Print the labels of the Pod web
      kubectl label pods web --list
    `,
  },
  annotate: {
    long: `
      Add, change or remove the annotations of objects.

      Annotations are key/value pairs, like labels, but they are not used to select objects, and their values may be long or structured, such as JSON. Tools and controllers use them to keep their own data on objects.

      Giving an existing annotation a new value needs --overwrite. With --resource-version, the change is made only if the object still has that resourceVersion.
    `,
    footer: API_RESOURCES_HINT,
    examples: `
      # Add the annotation description to the Pod web
      kubectl annotate pods web description='web frontend'

      # Annotate the object described in pod.json
      kubectl annotate -f pod.json description='web frontend'

      # Set the annotation description of the Pod web, replacing any value it had
      kubectl annotate --overwrite pods web description='web frontend, nginx 1.27'

      # Annotate every Pod in the namespace
      kubectl annotate pods --all description='web frontend'

      # Annotate the Pod web only if its resourceVersion is still 1
      kubectl annotate pods web description='web frontend' --resource-version=1

      # Remove the annotation description from the Pod web; no --overwrite needed
      kubectl annotate pods web description-
    `,
  },
  completion: {
    long: `
      Print a script that completes kubectl commands when Tab is pressed, for bash, zsh, fish or powershell.

      Load the script from your shell's start-up file to have completion in every session. The bash script needs the bash-completion package.

      This command is not available in this simulation; the terminal here completes kubectl commands with Tab already.
    `,
    examples: `
      # Write the bash script to a file, to source from ~/.bashrc
      kubectl completion bash > ~/.kube/completion.bash.inc

      # Write the zsh script into a directory listed in zsh's fpath
      kubectl completion zsh > ~/.zsh/completions/_kubectl

      # Set up fish completion for every session
      kubectl completion fish > ~/.config/fish/completions/kubectl.fish

      # Load powershell completion into the current session
      kubectl completion powershell | Out-String | Invoke-Expression
    `,
  },

  // ---------- other
  'api-resources': {
    long: `
      List the resource types the server offers, with their short names, API version, whether they are namespaced, and their kind.

      -o wide adds the verbs and categories of each type; -o name prints just the names, in the form "kubectl get" accepts.
    `,
    examples: `
      # List the resource types
      kubectl api-resources

      # List them with their verbs and categories
      kubectl api-resources -o wide

      # List them sorted by name
      kubectl api-resources --sort-by=name

      # List the namespaced resource types
      kubectl api-resources --namespaced=true

      # List the cluster-scoped resource types
      kubectl api-resources --namespaced=false

      # List the resource types of one API group
      kubectl api-resources --api-group=rbac.authorization.k8s.io

      # List the resource types that can be listed and watched
      kubectl api-resources --verbs=list,watch
    `,
  },
  'api-versions': {
    long: 'Print the API versions the server offers, one "group/version" a line.',
    examples: `
      # List the API versions
      kubectl api-versions
    `,
  },
  config: {
    long: `
      Show and change kubeconfig settings: the clusters, users and contexts kubectl uses to reach API servers.

      In this simulation the kubeconfig has a single context, kubeglass, whose cluster is the simulated API server; the namespace it uses can be changed.
    `,
  },
  'config current-context': {
    long: 'Print the name of the context in use.',
    examples: `
      # Print the name of the context in use
      kubectl config current-context
    `,
  },
  'config view': {
    long: `
      Print the kubeconfig settings kubectl uses: its clusters, users and contexts, merged from every kubeconfig file in use.

      Certificates and keys are shown as DATA+OMITTED.
    `,
    examples: `
      # Print the kubeconfig settings
      kubectl config view

      # Print only what the current context uses
      kubectl config view --minify
    `,
  },
  'config get-contexts': {
    long: 'List the contexts of the kubeconfig, or describe the ones named. The context in use is marked with *.',
    examples: `
      # List the contexts
      kubectl config get-contexts

      # Describe the context kubeglass
      kubectl config get-contexts kubeglass

      # Print only the names of the contexts
      kubectl config get-contexts -o name
    `,
  },
  'config set-context': {
    long: `
      Create or change a context of the kubeconfig.

      Settings given for an existing context are merged into it and its other settings stay as they are; --current changes the context in use. In this simulation, only the namespace of the kubeglass context can be changed.
    `,
    examples: `
      # Make dev the namespace of the context in use
      kubectl config set-context --current --namespace=dev

      # Make default the namespace of the context kubeglass
      kubectl config set-context kubeglass --namespace=default
    `,
  },
  plugin: {
    long: `
      Work with kubectl plugins.

      A plugin is a program on your PATH whose name begins with kubectl-: "kubectl foo" runs kubectl-foo. "kubectl plugin list" shows the plugins found.

      This command is not available in this simulation.
    `,
    examples: `
      # List the plugins on your PATH
      kubectl plugin list
    `,
  },
  version: {
    long: 'Print the version of kubectl and, unless --client is given, of the API server of the current context.',
    examples: `
      # Print the versions of kubectl and of the API server
      kubectl version

      # Print the version of kubectl only
      kubectl version --client

      # Print the versions as YAML
      kubectl version -o yaml
    `,
  },
};

/**
 * templates.LongDesc: the text rendered as kubectl's ASCII markdown renderer
 * renders it, then trimmed. Every paragraph but the first therefore starts
 * with a space, and list items are indented by two spaces ("  *  item").
 */
export function longText(doc: CommandDoc): string {
  const blocks = doc.long
    .trim()
    .split(/\n[ \t]*\n/)
    .map((block) => block.split('\n').map((l) => l.trim()));
  const out = blocks.map((lines) => {
    const marker = /^(\*|\d+\.) /;
    if (!marker.test(lines[0]!)) return ` ${lines.join(' ')}`;
    const items: string[] = [];
    for (const l of lines) {
      const m = marker.exec(l);
      if (m) items.push(`  ${m[1]}  ${l.slice(m[0].length)}`);
      else items[items.length - 1] += ` ${l}`;
    }
    return items.join('\n');
  });
  let s = out.join('\n\n').trim();
  if (doc.footer) s += `\n\n${doc.footer}`;
  return s;
}

/** templates.Examples: trimmed, and every line (blank ones too) trimmed and indented by two spaces. */
export function exampleText(doc: CommandDoc): string {
  return (doc.examples ?? '')
    .trim()
    .split('\n')
    .map((l) => `  ${l.trim()}`)
    .join('\n');
}
