// A trimmed OpenAPI v3 document per group-version, shaped like kube-apiserver's
// /openapi/v3/<gv> (components.schemas with x-kubernetes-group-version-kind,
// allOf-wrapped $refs, paths carrying the GVK), for kubectl explain tests.

type S = Record<string, unknown>;

const ref = (name: string, extra: S = {}): S => ({ allOf: [{ $ref: `#/components/schemas/${name}` }], ...extra });
const str = (description: string, extra: S = {}): S => ({ description, type: 'string', ...extra });
const CORE = 'io.k8s.api.core.v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const API_VERSION_DESC =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESC =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DESC = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const common = (): Record<string, S> => ({
  [`${META}.ObjectMeta`]: {
    description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    type: 'object',
    properties: {
      annotations: { description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations', type: 'object', additionalProperties: { type: 'string', default: '' } },
      labels: { description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels', type: 'object', additionalProperties: { type: 'string', default: '' } },
      name: str('Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'),
      namespace: str('Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty.\n\nMust be a DNS_LABEL. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces'),
      ownerReferences: { description: 'List of objects depended by this object.', type: 'array', items: ref(`${META}.OwnerReference`, { default: {} }), 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' },
    },
  },
  [`${META}.OwnerReference`]: {
    description: 'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    type: 'object',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: { apiVersion: str('API version of the referent.', { default: '' }), kind: str(KIND_DESC, { default: '' }), name: str('Name of the referent.', { default: '' }), uid: str('UID of the referent.', { default: '' }) },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${META}.LabelSelector`]: {
    description: 'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
    type: 'object',
    properties: {
      matchLabels: { description: 'matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is "key", the operator is "In", and the values array contains only "value". The requirements are ANDed.', type: 'object', additionalProperties: { type: 'string', default: '' } },
    },
    'x-kubernetes-map-type': 'atomic',
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { description: 'Quantity is a fixed-point representation of a number.', type: 'string' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { description: 'IntOrString is a type that can hold an int32 or a string.', type: 'string', format: 'int-or-string' },
  [`${CORE}.PodSpec`]: {
    description: 'PodSpec is a description of a pod.',
    type: 'object',
    required: ['containers'],
    properties: {
      containers: { description: 'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.', type: 'array', items: ref(`${CORE}.Container`, { default: {} }), 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      nodeName: str('NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.'),
      restartPolicy: str('Restart policy for all containers within the pod. One of Always, OnFailure, Never. In some contexts, only a subset of those values may be permitted. Default to Always. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy\n\nPossible enum values:\n - `"Always"`\n - `"Never"`\n - `"OnFailure"`', { enum: ['Always', 'Never', 'OnFailure'] }),
      nodeSelector: { description: "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/", type: 'object', additionalProperties: { type: 'string', default: '' }, 'x-kubernetes-map-type': 'atomic' },
    },
  },
  [`${CORE}.Container`]: {
    description: 'A single application container that you want to run within a pod.',
    type: 'object',
    required: ['name'],
    properties: {
      args: { description: 'Arguments to the entrypoint.', type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' },
      image: str('Container image name. More info: https://kubernetes.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.'),
      imagePullPolicy: str('Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated.\n\nPossible enum values:\n - `"Always"` means that kubelet always attempts to pull the latest image. Container will fail If the pull fails.\n - `"IfNotPresent"` means that kubelet pulls if the image isn\'t present on disk. Container will fail if the image isn\'t present and the pull fails.\n - `"Never"` means that kubelet never pulls an image, but only uses a local image. Container will fail if the image isn\'t present', { enum: ['Always', 'IfNotPresent', 'Never'] }),
      name: str('Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.', { default: '' }),
      ports: { description: 'List of ports to expose from the container.', type: 'array', items: ref(`${CORE}.ContainerPort`, { default: {} }) },
      resources: ref(`${CORE}.ResourceRequirements`, { default: {}, description: 'Compute Resources required by this container. Cannot be updated. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/' }),
    },
  },
  [`${CORE}.ContainerPort`]: {
    description: 'ContainerPort represents a network port in a single container.',
    type: 'object',
    required: ['containerPort'],
    properties: {
      containerPort: { description: "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.", type: 'integer', format: 'int32', default: 0 },
      protocol: str('Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".\n\nPossible enum values:\n - `"SCTP"` is the SCTP protocol.\n - `"TCP"` is the TCP protocol.\n - `"UDP"` is the UDP protocol.', { default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] }),
    },
  },
  [`${CORE}.ResourceRequirements`]: {
    description: 'ResourceRequirements describes the compute resource requirements.',
    type: 'object',
    properties: {
      limits: { description: 'Limits describes the maximum amount of compute resources allowed.', type: 'object', additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity') },
      requests: { description: 'Requests describes the minimum amount of compute resources required.', type: 'object', additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity') },
    },
  },
  [`${CORE}.PodTemplateSpec`]: {
    description: 'PodTemplateSpec describes the data a pod should have when created from a template',
    type: 'object',
    properties: { metadata: ref(`${META}.ObjectMeta`, { default: {}, description: METADATA_DESC }), spec: ref(`${CORE}.PodSpec`, { default: {}, description: 'Specification of the desired behavior of the pod.' }) },
  },
});

const path = (gvk: S): S => ({ get: { 'x-kubernetes-group-version-kind': gvk }, post: { 'x-kubernetes-group-version-kind': gvk } });

const coreV1 = {
  openapi: '3.0.0',
  info: { title: 'Kubernetes', version: 'v1.32.0' },
  paths: {
    '/api/v1/namespaces/{namespace}/pods': path({ group: '', kind: 'Pod', version: 'v1' }),
    '/api/v1/namespaces/{namespace}/configmaps': path({ group: '', kind: 'ConfigMap', version: 'v1' }),
    '/api/v1/nodes': path({ group: '', kind: 'Node', version: 'v1' }),
  },
  components: {
    schemas: {
      ...common(),
      [`${CORE}.Pod`]: {
        description: 'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
        type: 'object',
        properties: {
          apiVersion: str(API_VERSION_DESC),
          kind: str(KIND_DESC),
          metadata: ref(`${META}.ObjectMeta`, { default: {}, description: METADATA_DESC }),
          spec: ref(`${CORE}.PodSpec`, { default: {}, description: 'Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status' }),
          status: ref(`${CORE}.PodStatus`, { default: {}, description: 'Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status' }),
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
      },
      [`${CORE}.PodStatus`]: {
        description: 'PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.',
        type: 'object',
        properties: {
          phase: str('The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle.\n\nPossible enum values:\n - `"Failed"` means that all containers in the pod have terminated, and at least one container has terminated in a failure.\n - `"Pending"` means the pod has been accepted by the system.\n - `"Running"` means the pod has been bound to a node.\n - `"Succeeded"` means that all containers in the pod have voluntarily terminated.\n - `"Unknown"` means that for some reason the state of the pod could not be obtained.', { enum: ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'] }),
          podIP: str('podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.'),
        },
      },
      [`${CORE}.ConfigMap`]: {
        description: 'ConfigMap holds configuration data for pods to consume.',
        type: 'object',
        properties: {
          apiVersion: str(API_VERSION_DESC),
          binaryData: { description: 'BinaryData contains the binary data.', type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
          data: { description: "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'.", type: 'object', additionalProperties: { type: 'string', default: '' } },
          immutable: { description: 'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified).', type: 'boolean' },
          kind: str(KIND_DESC),
          metadata: ref(`${META}.ObjectMeta`, { default: {}, description: METADATA_DESC }),
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
      },
      [`${CORE}.Node`]: {
        description: 'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).',
        type: 'object',
        properties: { apiVersion: str(API_VERSION_DESC), kind: str(KIND_DESC), metadata: ref(`${META}.ObjectMeta`, { default: {}, description: METADATA_DESC }) },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'Node', version: 'v1' }],
      },
    },
  },
};

const appsV1 = {
  openapi: '3.0.0',
  info: { title: 'Kubernetes', version: 'v1.32.0' },
  paths: { '/apis/apps/v1/namespaces/{namespace}/deployments': path({ group: 'apps', kind: 'Deployment', version: 'v1' }) },
  components: {
    schemas: {
      ...common(),
      'io.k8s.api.apps.v1.Deployment': {
        description: 'Deployment enables declarative updates for Pods and ReplicaSets.',
        type: 'object',
        properties: {
          apiVersion: str(API_VERSION_DESC),
          kind: str(KIND_DESC),
          metadata: ref(`${META}.ObjectMeta`, { default: {}, description: METADATA_DESC }),
          spec: ref('io.k8s.api.apps.v1.DeploymentSpec', { default: {}, description: 'Specification of the desired behavior of the Deployment.' }),
        },
        'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
      },
      'io.k8s.api.apps.v1.DeploymentSpec': {
        description: 'DeploymentSpec is the specification of the desired behavior of the Deployment.',
        type: 'object',
        required: ['selector', 'template'],
        properties: {
          replicas: { description: 'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.', type: 'integer', format: 'int32' },
          selector: ref(`${META}.LabelSelector`, { description: "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels." }),
          template: ref(`${CORE}.PodTemplateSpec`, { default: {}, description: 'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".' }),
        },
      },
    },
  },
};

export const OPENAPI: Record<string, unknown> = { 'api/v1': coreV1, 'apis/apps/v1': appsV1 };
