/**
 * The emulated account: VMs, flexible GPUs, the seeded network (images, subnets, security groups) and tags.
 * State moves lazily: `settle(now)` advances every VM and fGPU to where the clock says it is, so tests drive
 * time with FakeClock.step() and no timer runs.
 */
import type { IdGenerator } from './ids.js';
import type {
  FlexibleGpuRecord,
  ImageRecord,
  LifecycleTimings,
  ResourceType,
  SecurityGroupRecord,
  SubnetRecord,
  VmRecord,
} from './records.js';

export class OutscaleStore {
  readonly vms = new Map<string, VmRecord>();
  readonly flexibleGpus = new Map<string, FlexibleGpuRecord>();
  readonly images = new Map<string, ImageRecord>();
  readonly subnets = new Map<string, SubnetRecord>();
  readonly securityGroups = new Map<string, SecurityGroupRecord>();
  readonly keypairs = new Set<string>();
  /** ClientToken → the VM ids its first CreateVms made. */
  readonly clientTokens = new Map<string, string[]>();
  private readonly tags = new Map<string, Map<string, string>>();
  private readonly resourceTypes = new Map<string, ResourceType>();
  private launches = 0;

  constructor(
    readonly ids: IdGenerator,
    readonly timings: LifecycleTimings,
  ) {}

  nextLaunchNumber(): number {
    return this.launches++;
  }

  register(id: string, type: ResourceType): void {
    this.resourceTypes.set(id, type);
  }

  resourceType(id: string): ResourceType | undefined {
    return this.resourceTypes.get(id);
  }

  forget(id: string): void {
    this.resourceTypes.delete(id);
    this.tags.delete(id);
  }

  tagsOf(id: string): Map<string, string> {
    let tags = this.tags.get(id);
    if (!tags) {
      tags = new Map();
      this.tags.set(id, tags);
    }
    return tags;
  }

  allTags(): { resourceId: string; resourceType: ResourceType; key: string; value: string }[] {
    const out: { resourceId: string; resourceType: ResourceType; key: string; value: string }[] = [];
    for (const [resourceId, tags] of this.tags) {
      const resourceType = this.resourceTypes.get(resourceId);
      if (!resourceType) continue;
      for (const [key, value] of tags) out.push({ resourceId, resourceType, key, value });
    }
    return out;
  }

  settle(now: number): void {
    for (const vm of [...this.vms.values()]) this.settleVm(vm, now);
    for (const gpu of [...this.flexibleGpus.values()]) this.settleGpu(gpu);
  }

  private settleVm(vm: VmRecord, now: number): void {
    for (;;) {
      const next = this.nextTransition(vm);
      if (!next || now < vm.stateSince + next.afterMs) return;
      if (vm.state === 'terminated') {
        this.vms.delete(vm.id);
        this.forget(vm.id);
        return;
      }
      vm.stateSince += next.afterMs;
      vm.state = next.to;
      if (vm.state === 'terminated') this.releaseGpusOf(vm.id);
    }
  }

  private nextTransition(vm: VmRecord): { to: VmRecord['state']; afterMs: number } | undefined {
    const t = this.timings;
    switch (vm.state) {
      case 'pending':
        return { to: vm.pendingTarget, afterMs: t.bootMs };
      case 'stopping':
        return { to: 'stopped', afterMs: t.stopMs };
      case 'shutting-down':
        return { to: 'terminated', afterMs: t.shutdownMs };
      case 'terminated':
        return { to: 'terminated', afterMs: t.terminatedRetentionMs };
      default:
        return undefined;
    }
  }

  /** A GPU link completes (and an unlink finishes) only while the VM is stopped, as on the real cloud. */
  private settleGpu(gpu: FlexibleGpuRecord): void {
    const vm = gpu.vmId ? this.vms.get(gpu.vmId) : undefined;
    if (!vm) return;
    if (gpu.state === 'attaching' && vm.state === 'stopped') gpu.state = 'attached';
    if (gpu.state === 'detaching' && vm.state === 'stopped') {
      gpu.state = 'allocated';
      delete gpu.vmId;
    }
  }

  private releaseGpusOf(vmId: string): void {
    for (const gpu of [...this.flexibleGpus.values()]) {
      if (gpu.vmId !== vmId) continue;
      if (gpu.deleteOnVmDeletion) {
        this.flexibleGpus.delete(gpu.id);
        this.forget(gpu.id);
      } else {
        gpu.state = 'allocated';
        delete gpu.vmId;
      }
    }
  }
}
