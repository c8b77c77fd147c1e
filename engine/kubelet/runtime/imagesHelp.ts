// What the fake container runtime can run, as the terminal's `help images`
// prints it (and the README says). Plain text with no imports, so the main
// thread can show it without loading the engine; imagesHelp.test.ts checks
// that every image it names is in the catalog (images.ts).

const row = (name: string, what: string) => `  ${name.padEnd(45)} ${what}`;
const more = (what: string) => row('', what);

export const IMAGES_HELP: readonly string[] = [
  'Images the nodes can run (any other image or tag fails to pull: ErrImagePull, then ImagePullBackOff):',
  row('nginx, httpd, registry.k8s.io/nginx-slim:0.27', 'serve their document root on 80, with access logs'),
  row('redis', 'serves 6379'),
  row('busybox, alpine, registry.k8s.io/busybox', 'a shell and busybox tools; their default CMD exits at once'),
  row('ubuntu, debian', 'bash and GNU tools'),
  row('postgres', 'serves 5432; needs env POSTGRES_PASSWORD, else exits 1'),
  row('mysql, mariadb', 'serve 3306; need MYSQL_ROOT_PASSWORD, else exit 1'),
  row('mongo, memcached', 'serve 27017, 11211'),
  row('rabbitmq, rabbitmq:management', '5672 (and the management UI on 15672)'),
  row('python, node', 'their default CMD (a REPL) exits at once (no terminal);'),
  more('python -m http.server 8000 serves 8000; a script idles'),
  row('curlimages/curl', 'args: a URL with a pod IP (no cluster DNS yet: names fail)'),
  row('gcr.io/google-samples/hello-app:1.0', 'serves 8080: "Hello, world!", its version and hostname'),
  row('registry.k8s.io/echoserver:1.10', 'serves 8080 and 8443'),
  row('hashicorp/http-echo', 'args: -text=hello [-listen=:5678]'),
  row('traefik/whoami', 'serves 80: its hostname, IPs and the request'),
  row('nginxinc/nginx-unprivileged', 'serves 8080'),
  row('registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3', 'command: sleep infinity; has nslookup, dig, host'),
  more('(no psql/mysql clients)'),
  row('registry.k8s.io/e2e-test-images/agnhost:2.39', 'args: netexec (HTTP 8080) | liveness (/healthz 500 after 10 s)'),
  more('| serve-hostname (9376) | pause'),
  row('registry.k8s.io/goproxy:0.1', 'TCP and HTTP on 8080'),
  row('vish/stress', 'args: -cpus 2 (burns two CPUs)'),
  more('or -mem-total 150Mi -mem-alloc-size 10Mi (grows memory)'),
  row('polinux/stress', 'command: stress --vm 1 --vm-bytes 150M --vm-hang 1'),
  more('CPU throttled at the limit; memory over it is OOMKilled (137)'),
  row('registry.k8s.io/hpa-example', 'serves 80 and burns the CPU its pod annotation asks:'),
  more('kubeglass.io/cpu-load: "0.5" (cores; edit it to change it)'),
  row('kubeglass/slow-start', 'listens on 8080 after 20 s (args: --start-delay S)'),
  row('kubeglass/ignore-sigterm', 'ignores SIGTERM: killed when the grace period ends'),
  row('kubeglass/crash', 'exits 1 after 5 s (args: --crash-after S --exit-code N)'),
  'Behaviour from a shell image: command: ["sh", "-c", "..."] with',
  row("'sleep 30'", 'runs 30 s, then Completed (exit 0)'),
  row("'sleep 10; exit 1'", 'Error after 10 s; restarted after 10 s, 20 s, 40 s … 5 min'),
  row("'echo hi; sleep 3600'", 'a line of log, then idle; as PID 1 it ignores SIGTERM'),
  more('(deletion waits out the grace period)'),
  row('\'trap "exit 0" TERM; sleep 3600 & wait\'', 'stops at once on SIGTERM'),
  '  The shell: ; && || & | > >> 2>&1, $VAR ${X:-d} $((1+2)) $(cmd), if/for/while/until, trap;',
  '  commands: echo printf cat ls touch mkdir rm sleep date hostname env head tail wc grep kill yes dd wget test.',
  '  Files are per container instance.',
  'Probes (exec, httpGet, tcpSocket, grpc), preStop hooks and kubectl exec run against the same programs.',
  'Pods reach pods by IP: wget -qO- http://POD_IP[:PORT]/ or curl from a shell image, on any node;',
  '  Services by their cluster IP (kube-proxy\'s iptables rules pick an endpoint at random);',
  '  names in /etc/hosts (the pod itself, hostAliases) resolve; other names do not (no cluster DNS yet).',
];
