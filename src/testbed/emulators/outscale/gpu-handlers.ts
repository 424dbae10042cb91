/**
 * Flexible GPUs: allocated in a subregion, linked to a VM of the same subregion with performance `highest`,
 * within the model's MaxCpu/MaxRam and of a compatible generation. A link (or unlink) completes only while
 * the VM is stopped (`attaching` → `attached`), as the real cloud documents. Billed while allocated.
 */
import type { EmulatorContext } from './context.js';
import type { FlexibleGpuRecord } from './records.js';
import { optionalBoolean, optionalObject, optionalString, optionalStringList, requiredString, type Body } from './validate.js';
import { flexibleGpuToWire } from './wire.js';
import { NotFoundCodes, wireErrors } from './wire-errors.js';

function model(ctx: EmulatorContext, name: string) {
  const found = ctx.gpuModels.find((m) => m.ModelName === name);
  if (!found) throw wireErrors.notFound(NotFoundCodes.flexibleGpuModel, 'flexible gpu model', name);
  return found;
}

function gpu(ctx: EmulatorContext, body: Body): FlexibleGpuRecord {
  ctx.store.settle(ctx.clock.now());
  const id = requiredString(body, 'FlexibleGpuId');
  const found = ctx.store.flexibleGpus.get(id);
  if (!found) throw wireErrors.notFound(NotFoundCodes.flexibleGpu, 'flexible gpu', id);
  return found;
}

export function createFlexibleGpu(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const m = model(ctx, requiredString(body, 'ModelName'));
  const subregion = requiredString(body, 'SubregionName');
  if (!ctx.subregions.includes(subregion)) throw wireErrors.notFound(NotFoundCodes.subregion, 'subregion', subregion);
  const generation = optionalString(body, 'Generation') ?? (m.Generations[m.Generations.length - 1] as string);
  if (!m.Generations.includes(generation)) throw wireErrors.invalidValue('Generation', generation, m.Generations.join(', '));
  const maxGpus = ctx.settings.quotas.maxGpus;
  if (maxGpus !== undefined && ctx.store.flexibleGpus.size >= maxGpus)
    throw wireErrors.quota('10030', `the limit of ${maxGpus} flexible gpus for this account is reached`);
  const record: FlexibleGpuRecord = {
    id: ctx.ids.next('fgpu'),
    modelName: m.ModelName,
    subregion,
    generation,
    state: 'allocated',
    deleteOnVmDeletion: optionalBoolean(body, 'DeleteOnVmDeletion') ?? false,
    createdAt: ctx.clock.now(),
  };
  ctx.store.flexibleGpus.set(record.id, record);
  ctx.store.register(record.id, 'flexible-gpu');
  return { FlexibleGpu: flexibleGpuToWire(record) };
}

export function linkFlexibleGpu(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const g = gpu(ctx, body);
  const vmId = requiredString(body, 'VmId');
  const vm = ctx.store.vms.get(vmId);
  if (!vm) throw wireErrors.notFound(NotFoundCodes.vm, 'vm', vmId);
  if (g.state !== 'allocated') throw wireErrors.invalidState(`the flexible gpu ${g.id} is ${g.state}; only an allocated one can be linked`);
  if (vm.state === 'terminated' || vm.state === 'shutting-down') throw wireErrors.invalidState(`the vm ${vm.id} is ${vm.state}`);
  if (vm.subregion !== g.subregion) throw wireErrors.invalidValue('VmId', vmId, `a vm in ${g.subregion}, the subregion of ${g.id}`);
  if (vm.performance !== 'highest') throw wireErrors.invalidValue('VmId', vmId, 'a vm with performance highest (p1)');
  const m = model(ctx, g.modelName);
  if (vm.vcores > m.MaxCpu || vm.ramGiB > m.MaxRam) {
    throw wireErrors.invalidValue('VmId', vmId, `a vm of at most ${m.MaxCpu} vcores and ${m.MaxRam} GiB for ${m.ModelName}`);
  }
  if (vm.generation !== undefined && `v${vm.generation}` !== g.generation) {
    throw wireErrors.invalidValue('VmId', vmId, `a vm of generation ${g.generation}, the generation of ${g.id}`);
  }
  g.state = vm.state === 'stopped' ? 'attached' : 'attaching';
  g.vmId = vm.id;
  return {};
}

export function unlinkFlexibleGpu(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const g = gpu(ctx, body);
  if (!g.vmId) throw wireErrors.invalidState(`the flexible gpu ${g.id} is not linked to a vm`);
  const vm = ctx.store.vms.get(g.vmId);
  if (!vm || vm.state === 'stopped' || g.state === 'attaching') {
    g.state = 'allocated';
    delete g.vmId;
  } else {
    g.state = 'detaching';
  }
  return {};
}

export function deleteFlexibleGpu(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const g = gpu(ctx, body);
  if (g.state !== 'allocated') throw wireErrors.invalidState(`the flexible gpu ${g.id} is ${g.state}; unlink it first`);
  ctx.store.flexibleGpus.delete(g.id);
  ctx.store.forget(g.id);
  return {};
}

export function readFlexibleGpus(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  ctx.store.settle(ctx.clock.now());
  const filters = optionalObject(body, 'Filters') ?? {};
  const ids = optionalStringList(filters, 'FlexibleGpuIds');
  const vmIds = optionalStringList(filters, 'VmIds');
  const states = optionalStringList(filters, 'States');
  const subregions = optionalStringList(filters, 'SubregionNames');
  const models = optionalStringList(filters, 'ModelNames');
  const deleteOnVmDeletion = optionalBoolean(filters, 'DeleteOnVmDeletion');
  const gpus = [...ctx.store.flexibleGpus.values()].filter(
    (g) =>
      (!ids || ids.includes(g.id)) &&
      (!vmIds || (g.vmId !== undefined && vmIds.includes(g.vmId))) &&
      (!states || states.includes(g.state)) &&
      (!subregions || subregions.includes(g.subregion)) &&
      (!models || models.includes(g.modelName)) &&
      (deleteOnVmDeletion === undefined || g.deleteOnVmDeletion === deleteOnVmDeletion),
  );
  return { FlexibleGpus: gpus.map(flexibleGpuToWire) };
}

export function readFlexibleGpuCatalog(ctx: EmulatorContext): Record<string, unknown> {
  return { FlexibleGpuCatalog: ctx.gpuModels.map((m) => ({ ...m, Generations: [...m.Generations] })) };
}
