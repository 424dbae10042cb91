/**
 * The numbers the extender's verbs read of each node, by slot, in typed arrays.
 *
 * Why columns: a call scores up to 5,000 nodes. Read from ExtenderNode objects (each with its allocatable and
 * requested lists, objects scattered over a large heap) the numbers cost several times what they cost side by
 * side in typed arrays, where a pass touches a few cache lines per node. The view keeps one set of columns for
 * the nodes it knows (a slot per node); a call given plain ExtenderNodes gets columns of its own, so every
 * call runs the same verbs.
 */
import { grown } from '../../util/typed-arrays.js';
import { ResourceCPU, ResourceMemory } from '../quantity/resource-list.js';
import type { ExtenderNode, ExtenderNodeState } from './types.js';

/** States by code, the code being the index: columns hold codes. */
export const NodeStates: readonly ExtenderNodeState[] = ['ok', 'consolidation-candidate', 'drifted', 'disrupting', 'terminating'];
const stateCodes = new Map(NodeStates.map((state, code) => [state, code]));

/** Slot of a node the view does not know. */
export const UnknownSlot = -1;

export class ExtenderNodeColumns {
  /** Amounts as in ResourceList (cpu in millicores, memory in bytes); a resource the node lacks is 0. */
  cpuAllocatable: Float64Array;
  memoryAllocatable: Float64Array;
  cpuRequested: Float64Array;
  memoryRequested: Float64Array;
  /** EUR per hour; NaN when unknown. */
  pricePerHour: Float64Array;
  /** Index into NodeStates. */
  states: Uint8Array;
  /** The node of each slot, for what the numbers do not cover (resources other than cpu and memory). */
  readonly nodes: (ExtenderNode | undefined)[] = [];

  constructor(capacity = 64) {
    this.cpuAllocatable = new Float64Array(capacity);
    this.memoryAllocatable = new Float64Array(capacity);
    this.cpuRequested = new Float64Array(capacity);
    this.memoryRequested = new Float64Array(capacity);
    this.pricePerHour = new Float64Array(capacity);
    this.states = new Uint8Array(capacity);
  }

  /** Slots are below this. */
  get slotLimit(): number {
    return this.states.length;
  }

  /** Columns for the given nodes, slot i for nodes[i] (UnknownSlot where undefined). */
  static of(nodes: readonly (ExtenderNode | undefined)[]): ResolvedNodes {
    const columns = new ExtenderNodeColumns(Math.max(1, nodes.length));
    const slots = new Int32Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (node) columns.set(i, node);
      slots[i] = node ? i : UnknownSlot;
    }
    return { columns, slots };
  }

  set(slot: number, node: ExtenderNode): void {
    if (slot >= this.states.length) this.grow(slot + 1);
    this.cpuAllocatable[slot] = node.allocatable[ResourceCPU] ?? 0;
    this.memoryAllocatable[slot] = node.allocatable[ResourceMemory] ?? 0;
    this.cpuRequested[slot] = node.requested[ResourceCPU] ?? 0;
    this.memoryRequested[slot] = node.requested[ResourceMemory] ?? 0;
    this.pricePerHour[slot] = node.pricePerHour ?? Number.NaN;
    this.states[slot] = stateCodes.get(node.state) ?? 0;
    this.nodes[slot] = node;
  }

  /** Lets go of the slot's node (its numbers stay until the slot is set again; nothing reads a slot no node holds). */
  forget(slot: number): void {
    this.nodes[slot] = undefined;
  }

  private grow(atLeast: number): void {
    const length = Math.max(atLeast, this.states.length * 2);
    this.cpuAllocatable = grown(this.cpuAllocatable, length);
    this.memoryAllocatable = grown(this.memoryAllocatable, length);
    this.cpuRequested = grown(this.cpuRequested, length);
    this.memoryRequested = grown(this.memoryRequested, length);
    this.pricePerHour = grown(this.pricePerHour, length);
    this.states = grown(this.states, length);
  }
}

/** The nodes of one call: a slot per input node (UnknownSlot: not known), read in `columns`. */
export interface ResolvedNodes {
  columns: ExtenderNodeColumns;
  slots: Int32Array;
}
