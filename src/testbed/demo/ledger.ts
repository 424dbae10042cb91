/**
 * Every NodeClaim the demo saw: when it was created and terminated (in which step), its flavor, zone, price
 * and the deletion reason the deleter wrote. Fed by its own NodeClaim informer, like a watching kubectl.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { LabelCloud, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { AnnotationDeletionReason } from '../../apis/v1/deletion-reasons.js';
import { ResourceInformer } from '../../kube/informer.js';
import { Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import { providerIdPrefixes } from '../../cloudprovider/cloud-provider-router.js';
import type { CatalogPriceBook } from '../../views/price-book.js';
import type { Clock } from '../../util/clock.js';

export interface LedgerEntry {
  name: string;
  nodePool: string;
  cloud?: string;
  instanceType?: string;
  zone?: string;
  pricePerHour?: number;
  createdInStep: string;
  terminatedInStep?: string;
  reason?: string;
  /** A Node registered for it (Registered condition true). */
  registered: boolean;
}

/** The cloud a providerID belongs to, for NodeClaims whose labels do not name it. */
function cloudOfProviderID(providerID: string | undefined): string | undefined {
  return providerID ? Object.entries(providerIdPrefixes).find(([, prefix]) => providerID.startsWith(prefix))?.[0] : undefined;
}

export class NodeLedger {
  private readonly entries = new Map<string, LedgerEntry>(); // nodeclaim name -> entry
  private readonly informer: ResourceInformer<NodeClaim>;
  private step = 'setup';
  private peakCost = 0;

  constructor(
    kubeConfig: KubeConfig,
    kube: Kube,
    clock: Clock,
    private readonly prices: CatalogPriceBook,
  ) {
    this.informer = new ResourceInformer<NodeClaim>({ kubeConfig, kube, clock, resource: Resources.NodeClaim });
    this.informer.on({ onAdd: (c) => this.observe(c), onUpdate: (c) => this.observe(c), onDelete: (c) => this.observe(c, true) });
  }

  async start(): Promise<void> {
    await this.informer.start();
    await this.informer.waitForSync();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  /** The step new observations are attributed to. */
  setStep(step: string): void {
    this.step = step;
  }

  private observe(claim: NodeClaim, deleted = false): void {
    const name = claim.metadata?.name ?? '';
    const labels = claim.metadata?.labels ?? {};
    const previous = this.entries.get(name);
    const entry: LedgerEntry = previous ?? { name, nodePool: labels[LabelNodePool] ?? '', createdInStep: this.step, registered: false };
    entry.instanceType = labels[LabelInstanceType] ?? entry.instanceType;
    entry.zone = labels[LabelTopologyZone] ?? entry.zone;
    entry.cloud = labels[LabelCloud] ?? entry.cloud ?? cloudOfProviderID(claim.status?.providerID);
    entry.pricePerHour ??= this.prices.hourlyForLabels({ ...labels, ...(entry.cloud ? { [LabelCloud]: entry.cloud } : {}) });
    entry.registered ||= (claim.status?.conditions ?? []).some((c) => c.type === 'Registered' && c.status === 'True');
    entry.reason = claim.metadata?.annotations?.[AnnotationDeletionReason] ?? entry.reason;
    if ((deleted || claim.metadata?.deletionTimestamp) && !entry.terminatedInStep) entry.terminatedInStep = this.step;
    this.entries.set(name, entry);
    this.peakCost = Math.max(this.peakCost, this.hourlyCost());
  }

  all(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  live(): LedgerEntry[] {
    return this.all().filter((e) => !e.terminatedInStep);
  }

  createdIn(step: string): LedgerEntry[] {
    return this.all().filter((e) => e.createdInStep === step);
  }

  terminatedIn(step: string): LedgerEntry[] {
    return this.all().filter((e) => e.terminatedInStep === step);
  }

  /** EUR per hour of the NodeClaims not terminating. */
  hourlyCost(): number {
    return this.live().reduce((sum, e) => sum + (e.pricePerHour ?? 0), 0);
  }

  peakHourlyCost(): number {
    return this.peakCost;
  }
}
