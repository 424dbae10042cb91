/** The set of served resources: built-ins plus the kinds that CustomResourceDefinitions make served. */
import { builtinTypes } from './builtin-types.js';
import { type ResourceType, apiVersionOf } from './resource-type.js';

export class ResourceRegistry {
  private readonly byPath = new Map<string, ResourceType>();

  constructor(initial: readonly ResourceType[] = builtinTypes) {
    for (const type of initial) this.add(type);
  }

  add(type: ResourceType): void {
    this.byPath.set(`${apiVersionOf(type)}/${type.plural}`, type);
  }

  /** Removes every version served for one CRD. */
  removeCrd(crdName: string): ResourceType[] {
    const removed = [...this.byPath.entries()].filter(([, t]) => t.crdName === crdName);
    for (const [key] of removed) this.byPath.delete(key);
    return removed.map(([, t]) => t);
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byPath.get(`${apiVersionOf({ group, version })}/${plural}`);
  }

  findByKind(apiVersion: string, kind: string): ResourceType | undefined {
    for (const type of this.byPath.values()) if (apiVersionOf(type) === apiVersion && type.kind === kind) return type;
    return undefined;
  }

  /** Any served version of a group + plural (admission and storage are version-independent here). */
  versionsOf(group: string, plural: string): ResourceType[] {
    return [...this.byPath.values()].filter((t) => t.group === group && t.plural === plural);
  }

  all(): ResourceType[] {
    return [...this.byPath.values()];
  }

  /** Group → versions, in registration order (core group under ''). */
  groups(): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    for (const type of this.byPath.values()) {
      const versions = groups.get(type.group) ?? [];
      if (!versions.includes(type.version)) versions.push(type.version);
      groups.set(type.group, versions);
    }
    return groups;
  }
}
