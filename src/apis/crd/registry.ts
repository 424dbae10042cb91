/** Every kind karpenter-eu serves, with its CRD metadata: the single list the generator and the validator share. */
import { NodeClaimGroup, NodeClaimKind, NodeClaimPlural, NodeClaimSchema, NodeClaimVersion } from '../v1/nodeclaim.js';
import { NodeOverlayGroup, NodeOverlayKind, NodeOverlayPlural, NodeOverlaySchema, NodeOverlayVersion } from '../v1alpha1/nodeoverlay.js';
import { NodePoolGroup, NodePoolKind, NodePoolPlural, NodePoolSchema, NodePoolVersion } from '../v1/nodepool.js';
import {
  OutscaleNodeClassGroup,
  OutscaleNodeClassKind,
  OutscaleNodeClassPlural,
  OutscaleNodeClassSchema,
  OutscaleNodeClassVersion,
} from '../v1alpha1/outscale-nodeclass.js';
import {
  OVHNodeClassGroup,
  OVHNodeClassKind,
  OVHNodeClassPlural,
  OVHNodeClassSchema,
  OVHNodeClassVersion,
} from '../v1alpha1/ovh-nodeclass.js';
import {
  ScalewayNodeClassGroup,
  ScalewayNodeClassKind,
  ScalewayNodeClassPlural,
  ScalewayNodeClassSchema,
  ScalewayNodeClassVersion,
} from '../v1alpha1/scaleway-nodeclass.js';
import { type CrdDefinition, type PrinterColumn, apiVersionOf } from './definition.js';

const readyColumn: PrinterColumn = { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' };
const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

export const NodePoolDefinition: CrdDefinition = {
  group: NodePoolGroup,
  version: NodePoolVersion,
  kind: NodePoolKind,
  plural: NodePoolPlural,
  singular: 'nodepool',
  scope: 'Cluster',
  categories: ['karpenter'],
  schema: NodePoolSchema,
  printerColumns: [
    { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
    { name: 'Nodes', type: 'string', jsonPath: '.status.nodes' },
    readyColumn,
    ageColumn,
    { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 },
    { name: 'CPU', type: 'string', jsonPath: '.status.resources.cpu', priority: 1 },
    { name: 'Memory', type: 'string', jsonPath: '.status.resources.memory', priority: 1 },
  ],
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.nodes' },
};

export const NodeClaimDefinition: CrdDefinition = {
  group: NodeClaimGroup,
  version: NodeClaimVersion,
  kind: NodeClaimKind,
  plural: NodeClaimPlural,
  singular: 'nodeclaim',
  scope: 'Cluster',
  categories: ['karpenter'],
  schema: NodeClaimSchema,
  printerColumns: [
    { name: 'Type', type: 'string', jsonPath: '.metadata.labels.node\\.kubernetes\\.io/instance-type' },
    { name: 'Capacity', type: 'string', jsonPath: '.metadata.labels.karpenter\\.sh/capacity-type' },
    { name: 'Zone', type: 'string', jsonPath: '.metadata.labels.topology\\.kubernetes\\.io/zone' },
    { name: 'Node', type: 'string', jsonPath: '.status.nodeName' },
    readyColumn,
    ageColumn,
    { name: 'ImageID', type: 'string', jsonPath: '.status.imageID', priority: 1 },
    { name: 'ID', type: 'string', jsonPath: '.status.providerID', priority: 1 },
    { name: 'NodePool', type: 'string', jsonPath: '.metadata.labels.karpenter\\.sh/nodepool', priority: 1 },
    { name: 'NodeClass', type: 'string', jsonPath: '.spec.nodeClassRef.name', priority: 1 },
    { name: 'Drifted', type: 'string', jsonPath: '.status.conditions[?(@.type=="Drifted")].status', priority: 1 },
  ],
};

export const OVHNodeClassDefinition: CrdDefinition = {
  group: OVHNodeClassGroup,
  version: OVHNodeClassVersion,
  kind: OVHNodeClassKind,
  plural: OVHNodeClassPlural,
  singular: 'ovhnodeclass',
  scope: 'Cluster',
  categories: ['karpenter'],
  shortNames: ['ovhnc', 'ovhncs'],
  schema: OVHNodeClassSchema,
  printerColumns: [
    { name: 'Region', type: 'string', jsonPath: '.spec.region' },
    { name: 'Monthly', type: 'boolean', jsonPath: '.spec.monthlyBilled' },
    readyColumn,
    ageColumn,
    { name: 'Project', type: 'string', jsonPath: '.spec.serviceName', priority: 1 },
    { name: 'Cluster', type: 'string', jsonPath: '.status.kubeId', priority: 1 },
  ],
};

export const ScalewayNodeClassDefinition: CrdDefinition = {
  group: ScalewayNodeClassGroup,
  version: ScalewayNodeClassVersion,
  kind: ScalewayNodeClassKind,
  plural: ScalewayNodeClassPlural,
  singular: 'scalewaynodeclass',
  scope: 'Cluster',
  categories: ['karpenter'],
  shortNames: ['scwnc', 'scwncs'],
  schema: ScalewayNodeClassSchema,
  printerColumns: [
    { name: 'Image', type: 'string', jsonPath: '.spec.image' },
    readyColumn,
    ageColumn,
    { name: 'Project', type: 'string', jsonPath: '.spec.projectId', priority: 1 },
    { name: 'Image-ID', type: 'string', jsonPath: '.status.images[0].id', priority: 1 },
  ],
};

export const OutscaleNodeClassDefinition: CrdDefinition = {
  group: OutscaleNodeClassGroup,
  version: OutscaleNodeClassVersion,
  kind: OutscaleNodeClassKind,
  plural: OutscaleNodeClassPlural,
  singular: 'outscalenodeclass',
  scope: 'Cluster',
  categories: ['karpenter'],
  shortNames: ['oscnc', 'oscncs'],
  schema: OutscaleNodeClassSchema,
  printerColumns: [
    { name: 'Region', type: 'string', jsonPath: '.spec.region' },
    { name: 'Image', type: 'string', jsonPath: '.spec.imageId' },
    readyColumn,
    ageColumn,
    { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterId', priority: 1 },
    { name: 'Image-Name', type: 'string', jsonPath: '.status.images[0].name', priority: 1 },
  ],
};

export const NodeOverlayDefinition: CrdDefinition = {
  group: NodeOverlayGroup,
  version: NodeOverlayVersion,
  kind: NodeOverlayKind,
  plural: NodeOverlayPlural,
  singular: 'nodeoverlay',
  scope: 'Cluster',
  categories: ['karpenter'],
  shortNames: ['overlays'],
  schema: NodeOverlaySchema,
  printerColumns: [readyColumn, ageColumn, { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 }],
};

export const CrdDefinitions: readonly CrdDefinition[] = [
  NodePoolDefinition,
  NodeClaimDefinition,
  NodeOverlayDefinition,
  OVHNodeClassDefinition,
  ScalewayNodeClassDefinition,
  OutscaleNodeClassDefinition,
];

/** The definition serving apiVersion + kind, or undefined when karpenter-eu does not serve it. */
export function findCrdDefinition(apiVersion: string, kind: string): CrdDefinition | undefined {
  return CrdDefinitions.find((def) => apiVersionOf(def) === apiVersion && def.kind === kind);
}
