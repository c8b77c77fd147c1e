// Manifests the editor offers from its Examples menu.

export interface Example {
  id: string;
  label: string;
  text: string;
}

const HEADER = `# Kubernetes YAML: Apply (Ctrl/Cmd+Enter) runs kubectl apply on each document.
# The terminal reads this buffer too: kubectl apply -f editor
`;

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: game-config
  namespace: default
  labels:
    app: game
data:
  player.lives: "3"
  ui.properties: |
    color.good=purple
    color.bad=yellow
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          ports:
            - containerPort: 80
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
            limits:
              memory: 128Mi
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
spec:
  type: ClusterIP
  selector:
    app: web
  ports:
    - name: http
      port: 80
      targetPort: 80
`;

const RESTRICTED_POD = `# A namespace that enforces the "restricted" Pod Security Standard...
apiVersion: v1
kind: Namespace
metadata:
  name: locked-down
  labels:
    pod-security.kubernetes.io/enforce: restricted
---
# ...and a Pod that breaks it: PodSecurity admission refuses it.
apiVersion: v1
kind: Pod
metadata:
  name: root-shell
  namespace: locked-down
spec:
  containers:
    - name: shell
      image: busybox:1.36
      command: ["sleep", "3600"]
      securityContext:
        privileged: true
`;

const ALICE = `# alice may read pods in "default", and nothing else:
#   kubectl --as alice get pods      (allowed)
#   kubectl --as alice get secrets   (forbidden)
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: default
rules:
  - apiGroups: [""]
    resources: ["pods"]
    verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: alice-reads-pods
  namespace: default
subjects:
  - kind: User
    name: alice
    apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
`;

export const EXAMPLES: Example[] = [
  { id: 'configmap', label: 'ConfigMap', text: HEADER + CONFIGMAP },
  { id: 'deployment', label: 'Deployment (nginx, 3 replicas)', text: HEADER + DEPLOYMENT },
  { id: 'service', label: 'Service (ClusterIP for web)', text: HEADER + SERVICE },
  { id: 'restricted-pod', label: 'Pod refused by PodSecurity "restricted"', text: HEADER + RESTRICTED_POD },
  { id: 'alice', label: 'Role + RoleBinding for alice', text: HEADER + ALICE },
];

export const DEFAULT_TEXT = HEADER + CONFIGMAP;
