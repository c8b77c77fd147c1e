// Request bodies the real kubectl v1.32.4 sent (Content-Type
// application/vnd.kubernetes.protobuf), captured by pointing it at a throwaway
// HTTP server that recorded each POST body (base64 here). `dryRun` is the same
// command's `--dry-run=client -o json` output: the Go JSON of the very object
// kubectl encoded, or null where kubectl has no dry run.

export interface KubectlCapture {
  command: string;
  path: string;
  /** base64 of the raw request body */
  body: string;
  dryRun: Record<string, unknown> | null;
}

export const KUBECTL_CAPTURES: KubectlCapture[] = [
  {
    command: "kubectl create configmap demo --from-literal=a=1 -n default",
    path: "/api/v1/namespaces/default/configmaps",
    body: "azhzAAoPCgJ2MRIJQ29uZmlnTWFwEiUKGwoEZGVtbxIAGgdkZWZhdWx0IgAqADIAOABCABIGCgFhEgExGgAiAA==",
    dryRun: {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"demo","namespace":"default","creationTimestamp":null},"data":{"a":"1"}},
  },
  {
    command: "kubectl auth can-i create pods",
    path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
    body: "azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSPwoQCgASABoAIgAqADIAOABCABIhCh8KB2RlZmF1bHQSBmNyZWF0ZRoAIgAqBHBvZHMyADoAGggIABIAGgAgABoAIgA=",
    dryRun: null,
  },
  {
    command: "kubectl create deployment web --image=nginx:1.27 --replicas=2 --port=80",
    path: "/apis/apps/v1/namespaces/default/deployments",
    body: "azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50Er0BCh8KA3dlYhIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViEosBCAISDAoKCgNhcHASA3dlYhpxChwKABIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViElESMwoFbmdpbngSCm5naW54OjEuMjcqADIKCgAQABhQIgAqAEIAagByAIABAIgBAJABAKIBABoAMgBCAEoAUgBYAGAAaACCAQCKAQCaAQDCAQAiAgoAKAA4ABoMCAAQABgAIAAoADgAGgAiAA==",
    dryRun: {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","creationTimestamp":null,"labels":{"app":"web"}},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80}],"resources":{}}]}},"strategy":{}},"status":{}},
  },
  {
    command: "kubectl create secret generic s --from-literal=k=v",
    path: "/api/v1/namespaces/default/secrets",
    body: "azhzAAoMCgJ2MRIGU2VjcmV0Eh0KEQoBcxIAGgAiACoAMgA4AEIAEgYKAWsSAXYaABoAIgA=",
    dryRun: {"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","creationTimestamp":null},"data":{"k":"dg=="}},
  },
  {
    command: "kubectl auth whoami",
    path: "/apis/authentication.k8s.io/v1/selfsubjectreviews",
    body: "azhzAAotChhhdXRoZW50aWNhdGlvbi5rOHMuaW8vdjESEVNlbGZTdWJqZWN0UmV2aWV3EhoKEAoAEgAaACIAKgAyADgAQgASBgoECgASABoAIgA=",
    dryRun: null,
  },
  {
    command: "kubectl auth can-i --list",
    path: "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
    body: "azhzAAoxChdhdXRob3JpemF0aW9uLms4cy5pby92MRIWU2VsZlN1YmplY3RSdWxlc1JldmlldxIjChAKABIAGgAiACoAMgA4AEIAEgkKB2RlZmF1bHQaBBgAIgAaACIA",
    dryRun: null,
  },
  {
    command: "kubectl create namespace x",
    path: "/api/v1/namespaces",
    body: "azhzAAoPCgJ2MRIJTmFtZXNwYWNlEhkKEQoBeBIAGgAiACoAMgA4AEIAEgAaAgoAGgAiAA==",
    dryRun: {"kind":"Namespace","apiVersion":"v1","metadata":{"name":"x","creationTimestamp":null},"spec":{},"status":{}},
  },
  {
    command: "kubectl create rolebinding rb --clusterrole=view --user=alice --serviceaccount=default:sa -n default",
    path: "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
    body: "azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtSb2xlQmluZGluZxKYAQoZCgJyYhIAGgdkZWZhdWx0IgAqADIAOABCABIqCgRVc2VyEhlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvGgVhbGljZSIAEh8KDlNlcnZpY2VBY2NvdW50EgAaAnNhIgdkZWZhdWx0Gi4KGXJiYWMuYXV0aG9yaXphdGlvbi5rOHMuaW8SC0NsdXN0ZXJSb2xlGgR2aWV3GgAiAA==",
    dryRun: {"kind":"RoleBinding","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"rb","namespace":"default","creationTimestamp":null},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"alice"},{"kind":"ServiceAccount","name":"sa","namespace":"default"}],"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}},
  },
  {
    command: "kubectl create job j --image=busybox -- echo hi",
    path: "/apis/batch/v1/namespaces/default/jobs",
    body: "azhzAAoPCghiYXRjaC92MRIDSm9iEoIBChEKAWoSABoAIgAqADIAOABCABJjMmEKEAoAEgAaACIAKgAyADgAQgASTRIqCgFqEgdidXN5Ym94GgRlY2hvGgJoaSoAQgBqAHIAgAEAiAEAkAEAogEAGgVOZXZlcjIAQgBKAFIAWABgAGgAggEAigEAmgEAwgEAGgggACgAMAA6ABoAIgA=",
    dryRun: {"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"j","creationTimestamp":null},"spec":{"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"name":"j","image":"busybox","command":["echo","hi"],"resources":{}}],"restartPolicy":"Never"}}},"status":{}},
  },
  {
    command: "kubectl create quota q --hard=cpu=1500m,memory=1Gi,pods=10",
    path: "/api/v1/namespaces/default/resourcequotas",
    body: "azhzAAoTCgJ2MRINUmVzb3VyY2VRdW90YRJGChEKAXESABoAIgAqADIAOABCABIvCg4KA2NwdRIHCgUxNTAwbQoPCgZtZW1vcnkSBQoDMUdpCgwKBHBvZHMSBAoCMTAaABoAIgA=",
    dryRun: {"kind":"ResourceQuota","apiVersion":"v1","metadata":{"name":"q","creationTimestamp":null},"spec":{"hard":{"cpu":"1500m","memory":"1Gi","pods":"10"}},"status":{}},
  },
  {
    command: "kubectl create poddisruptionbudget p --selector=app=web --min-available=50%",
    path: "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
    body: "azhzAAogCglwb2xpY3kvdjESE1BvZERpc3J1cHRpb25CdWRnZXQSOgoRCgFwEgAaACIAKgAyADgAQgASGQoJCAEQABoDNTAlEgwKCgoDYXBwEgN3ZWIaCggAGAAgACgAMAAaACIA",
    dryRun: {"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"minAvailable":"50%","selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}},
  },
  {
    command: "kubectl create poddisruptionbudget p2 --selector=app=web --max-unavailable=1",
    path: "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
    body: "azhzAAogCglwb2xpY3kvdjESE1BvZERpc3J1cHRpb25CdWRnZXQSOAoSCgJwMhIAGgAiACoAMgA4AEIAEhYSDAoKCgNhcHASA3dlYhoGCAAQARoAGgoIABgAIAAoADAAGgAiAA==",
    dryRun: {"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{"name":"p2","creationTimestamp":null},"spec":{"selector":{"matchLabels":{"app":"web"}},"maxUnavailable":1},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}},
  },
  {
    command: "kubectl create service clusterip mysvc --tcp=80:8080",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJvCiMKBW15c3ZjEgAaACIAKgAyADgAQgBaDAoDYXBwEgVteXN2YxJEChsKBzgwLTgwODASA1RDUBhQIgcIABCQPxoAKAASDAoDYXBwEgVteXN2YxoAIglDbHVzdGVySVA6AEIAUgBaAGAAaAAaAgoAGgAiAA==",
    dryRun: {"kind":"Service","apiVersion":"v1","metadata":{"name":"mysvc","creationTimestamp":null,"labels":{"app":"mysvc"}},"spec":{"ports":[{"name":"80-8080","protocol":"TCP","port":80,"targetPort":8080}],"selector":{"app":"mysvc"},"type":"ClusterIP"},"status":{"loadBalancer":{}}},
  },
  {
    command: "kubectl create service nodeport np --tcp=5678:8080 --node-port=30080",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJqCh0KAm5wEgAaACIAKgAyADgAQgBaCQoDYXBwEgJucBJFCiAKCTU2NzgtODA4MBIDVENQGK4sIgcIABCQPxoAKIDrARIJCgNhcHASAm5wGgAiCE5vZGVQb3J0OgBCAFIAWgBgAGgAGgIKABoAIgA=",
    dryRun: {"kind":"Service","apiVersion":"v1","metadata":{"name":"np","creationTimestamp":null,"labels":{"app":"np"}},"spec":{"ports":[{"name":"5678-8080","protocol":"TCP","port":5678,"targetPort":8080,"nodePort":30080}],"selector":{"app":"np"},"type":"NodePort"},"status":{"loadBalancer":{}}},
  },
  {
    command: "kubectl create cronjob cj --image=busybox --schedule=\"*/5 * * * *\" -- date",
    path: "/apis/batch/v1/namespaces/default/cronjobs",
    body: "azhzAAoTCghiYXRjaC92MRIHQ3JvbkpvYhKkAQoSCgJjahIAGgAiACoAMgA4AEIAEosBCgsqLzUgKiAqICogKhoAKnoKEgoCY2oSABoAIgAqADIAOABCABJkMmIKEAoAEgAaACIAKgAyADgAQgASThInCgJjahIHYnVzeWJveBoEZGF0ZSoAQgBqAHIAgAEAiAEAkAEAogEAGglPbkZhaWx1cmUyAEIASgBSAFgAYABoAIIBAIoBAJoBAMIBABoAGgAiAA==",
    dryRun: {"kind":"CronJob","apiVersion":"batch/v1","metadata":{"name":"cj","creationTimestamp":null},"spec":{"schedule":"*/5 * * * *","jobTemplate":{"metadata":{"name":"cj","creationTimestamp":null},"spec":{"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"name":"cj","image":"busybox","command":["date"],"resources":{}}],"restartPolicy":"OnFailure"}}}}},"status":{}},
  },
  {
    command: "kubectl create priorityclass high --value=1000 --description=\"high prio\" --preemption-policy=Never",
    path: "/apis/scheduling.k8s.io/v1/priorityclasses",
    body: "azhzAAolChRzY2hlZHVsaW5nLms4cy5pby92MRINUHJpb3JpdHlDbGFzcxItChQKBGhpZ2gSABoAIgAqADIAOABCABDoBxgAIgloaWdoIHByaW8qBU5ldmVyGgAiAA==",
    dryRun: {"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1","metadata":{"name":"high","creationTimestamp":null},"value":1000,"description":"high prio","preemptionPolicy":"Never"},
  },
  {
    command: "kubectl create ingress ing --class=nginx --rule=\"foo.com/bar=svc1:8080,tls=my-cert\"",
    path: "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
    body: "azhzAAofChRuZXR3b3JraW5nLms4cy5pby92MRIHSW5ncmVzcxJlChMKA2luZxIAGgAiACoAMgA4AEIAEkoSEgoHZm9vLmNvbRIHbXktY2VydBotCgdmb28uY29tEiIKIAoeCgQvYmFyEg8iDQoEc3ZjMRIFCgAQkD8aBUV4YWN0IgVuZ2lueBoCCgAaACIA",
    dryRun: {"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"ing","creationTimestamp":null},"spec":{"ingressClassName":"nginx","tls":[{"hosts":["foo.com"],"secretName":"my-cert"}],"rules":[{"host":"foo.com","http":{"paths":[{"path":"/bar","pathType":"Exact","backend":{"service":{"name":"svc1","port":{"number":8080}}}}]}}]},"status":{"loadBalancer":{}}},
  },
  {
    command: "kubectl create serviceaccount bot",
    path: "/api/v1/namespaces/default/serviceaccounts",
    body: "azhzAAoUCgJ2MRIOU2VydmljZUFjY291bnQSFQoTCgNib3QSABoAIgAqADIAOABCABoAIgA=",
    dryRun: {"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"bot","creationTimestamp":null}},
  },
  {
    command: "kubectl create clusterrole logs --verb=get --non-resource-url=/logs/*",
    path: "/apis/rbac.authorization.k8s.io/v1/clusterroles",
    body: "azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRImChQKBGxvZ3MSABoAIgAqADIAOABCABIOCgNnZXQqBy9sb2dzLyoaACIA",
    dryRun: {"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"logs","creationTimestamp":null},"rules":[{"verbs":["get"],"nonResourceURLs":["/logs/*"]}]},
  },
  {
    command: "kubectl create token bot --duration=1h --audience=api",
    path: "/api/v1/namespaces/default/serviceaccounts/bot/token",
    body: "azhzAAooChhhdXRoZW50aWNhdGlvbi5rOHMuaW8vdjESDFRva2VuUmVxdWVzdBIiChAKABIAGgAiACoAMgA4AEIAEggKA2FwaSCQHBoECgASABoAIgA=",
    dryRun: null,
  },
];
