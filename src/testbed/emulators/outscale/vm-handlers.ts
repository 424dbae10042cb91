/** ReadVms (filters + pagination), DeleteVms, StartVms, StopVms. */
import type { EmulatorContext } from './context.js';
import type { VmRecord, VmState } from './records.js';
import { optionalObject, optionalStringList, requiredStringList, type Body } from './validate.js';
import { paginate, vmToWire } from './wire.js';
import { NotFoundCodes, wireErrors } from './wire-errors.js';

const VM_STATES: readonly VmState[] = ['pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated', 'quarantine'];

type VmPredicate = (vm: VmRecord, tags: Map<string, string>) => boolean;

function anyOf(list: string[] | undefined, test: (value: string) => boolean): boolean {
  return list === undefined || list.some(test);
}

function vmFilters(filters: Body): VmPredicate {
  const ids = optionalStringList(filters, 'VmIds');
  const tagKeys = optionalStringList(filters, 'TagKeys');
  const tagValues = optionalStringList(filters, 'TagValues');
  const tags = optionalStringList(filters, 'Tags')?.map((t) => {
    const at = t.indexOf('=');
    return at < 0 ? { key: t, value: undefined } : { key: t.slice(0, at), value: t.slice(at + 1) };
  });
  const states = optionalStringList(filters, 'VmStateNames');
  for (const s of states ?? [])
    if (!VM_STATES.includes(s as VmState)) throw wireErrors.invalidValue('Filters.VmStateNames', s, VM_STATES.join(', '));
  const tokens = optionalStringList(filters, 'ClientTokens');
  const subregions = optionalStringList(filters, 'SubregionNames');
  const types = optionalStringList(filters, 'VmTypes');
  const images = optionalStringList(filters, 'ImageIds');
  const subnets = optionalStringList(filters, 'SubnetIds');
  const ips = optionalStringList(filters, 'PrivateIps');
  return (vm, vmTags) =>
    anyOf(ids, (v) => v === vm.id) &&
    anyOf(tagKeys, (k) => vmTags.has(k)) &&
    anyOf(tagValues, (v) => [...vmTags.values()].includes(v)) &&
    (tags === undefined || tags.some((t) => vmTags.has(t.key) && (t.value === undefined || vmTags.get(t.key) === t.value))) &&
    anyOf(states, (s) => s === vm.state) &&
    anyOf(tokens, (t) => t === vm.clientToken) &&
    anyOf(subregions, (s) => s === vm.subregion) &&
    anyOf(types, (t) => t === vm.vmType) &&
    anyOf(images, (i) => i === vm.imageId) &&
    anyOf(subnets, (s) => s === vm.subnetId) &&
    anyOf(ips, (ip) => ip === vm.privateIp);
}

export function readVms(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const now = ctx.clock.now();
  ctx.store.settle(now);
  const matches = vmFilters(optionalObject(body, 'Filters') ?? {});
  const visible = [...ctx.store.vms.values()]
    .filter((vm) => now >= vm.visibleAt && matches(vm, ctx.store.tagsOf(vm.id)))
    .sort((a, b) => a.createdAt - b.createdAt || a.launchNumber - b.launchNumber);
  const { page, nextPageToken } = paginate(body, visible, ctx.settings.pageLimit);
  return { Vms: page.map((vm) => vmToWire(ctx.store, vm)), ...(nextPageToken ? { NextPageToken: nextPageToken } : {}) };
}

/** Every id must name a VM the caller can see, or the whole call fails (5063), as on the real API. */
function targetVms(ctx: EmulatorContext, body: Body): VmRecord[] {
  ctx.store.settle(ctx.clock.now());
  return requiredStringList(body, 'VmIds').map((id) => {
    const vm = ctx.store.vms.get(id);
    if (!vm) throw wireErrors.notFound(NotFoundCodes.vm, 'vm', id);
    return vm;
  });
}

function transition(ctx: EmulatorContext, vm: VmRecord, to: VmState): { VmId: string; PreviousState: VmState; CurrentState: VmState } {
  const previous = vm.state;
  if (to !== previous) {
    vm.state = to;
    vm.stateSince = ctx.clock.now();
  }
  return { VmId: vm.id, PreviousState: previous, CurrentState: vm.state };
}

export function deleteVms(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const vms = targetVms(ctx, body);
  const protectedVm = vms.find((vm) => vm.deletionProtection);
  if (protectedVm) throw wireErrors.invalidState(`the vm ${protectedVm.id} has deletion protection enabled`);
  return {
    Vms: vms.map((vm) =>
      vm.state === 'terminated' || vm.state === 'shutting-down' ? transition(ctx, vm, vm.state) : transition(ctx, vm, 'shutting-down'),
    ),
  };
}

export function startVms(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const vms = targetVms(ctx, body);
  const bad = vms.find((vm) => vm.state !== 'stopped' && vm.state !== 'running' && vm.state !== 'pending');
  if (bad) throw wireErrors.invalidState(`the vm ${bad.id} is ${bad.state}; only a stopped vm can be started`);
  return {
    Vms: vms.map((vm) => {
      if (vm.state !== 'stopped') return transition(ctx, vm, vm.state);
      vm.pendingTarget = 'running';
      return transition(ctx, vm, 'pending');
    }),
  };
}

export function stopVms(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const vms = targetVms(ctx, body);
  const bad = vms.find((vm) => vm.state !== 'running' && vm.state !== 'stopped' && vm.state !== 'stopping');
  if (bad) throw wireErrors.invalidState(`the vm ${bad.id} is ${bad.state}; only a running vm can be stopped`);
  return { Vms: vms.map((vm) => transition(ctx, vm, vm.state === 'running' ? 'stopping' : vm.state)) };
}
