import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { formatFieldErrors, validateObject, applyDefaults } from '../../../src/apis/validation/index.js';
import { admissionErrors, oracle } from './upstream-oracle.js';

// NodePools as users of Karpenter v1.0.x and of the OVHcloud provider write them (shared/seeds 001, 002, 004).
const manifests = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: cost-optimized}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: ["b2-7", "b2-15"]}
  limits: {cpu: 50, memory: 100Gi}
  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 10s}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: production-pool}
spec:
  template:
    metadata:
      labels: {environment: production}
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: ["b2-30", "b2-60", "b2-120"]}
        - {key: topology.kubernetes.io/zone, operator: In, values: ["gra7-a", "gra7-b", "gra7-c"]}
      expireAfter: 168h
  limits: {cpu: 100, memory: 200Gi}
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 5m
    budgets:
      - nodes: "20%"
      - nodes: "0"
        schedule: "0 8 * * 1-5"
        duration: 10h
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: ["t2-45", "t2-90", "t2-180"]}
        - {key: karpenter.sh/capacity-type, operator: In, values: ["on-demand"]}
        - {key: kubernetes.io/arch, operator: In, values: ["amd64"]}
      taints:
        - {key: nvidia.com/gpu, value: "true", effect: NoSchedule}
  limits: {cpu: 100}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default}
      requirements:
        - {key: kubernetes.io/arch, operator: In, values: ["amd64"]}
        - {key: node.kubernetes.io/instance-type, operator: In, values: ["b3-8", "b3-16", "b3-32"]}
  disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 30s}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: aws-style}
spec:
  weight: 50
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: ["3"]}
        - {key: node.kubernetes.io/instance-type, operator: In, values: ["m5.large", "m5.xlarge", "c5.large"], minValues: 2}
      expireAfter: Never
      terminationGracePeriod: 48h
      startupTaints:
        - {key: example.com/agent-not-ready, effect: NoExecute}
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
    budgets:
      - {nodes: "10%", reasons: [Empty, Drifted]}
`;

const pools = parseAllDocuments(manifests).map((doc) => doc.toJS() as Record<string, unknown>);

describe('NodePools written for v1.0.9', () => {
  const v109 = oracle.nodePoolV109();

  it.each(pools.map((p) => [(p.metadata as { name: string }).name, p] as const))(
    '%s: v1.0.9 admits it and so does karpenter-eu',
    (_name, pool) => {
      expect(formatFieldErrors(admissionErrors(v109, pool))).toBe('');
      expect(formatFieldErrors(validateObject(applyDefaults(pool)))).toBe('');
    },
  );
});
