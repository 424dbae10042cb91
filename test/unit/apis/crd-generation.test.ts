import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CrdDefinitions, NodeClaimDefinition, NodePoolDefinition, buildCrd, openApiSchemaOf } from '../../../src/apis/index.js';
import { crdFileName, renderCrd } from '../../../src/apis/crd/render.js';
import { loadUpstreamCrd, withoutDescriptions } from './upstream-oracle.js';

const crdDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'manifests', 'crds');

interface RuleLike {
  rule: string;
  message: string;
}

function collectRules(schema: unknown, out: RuleLike[] = []): RuleLike[] {
  if (Array.isArray(schema)) schema.forEach((s) => collectRules(s, out));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'x-kubernetes-validations') out.push(...(value as RuleLike[]).map(({ rule, message }) => ({ rule, message })));
      else collectRules(value, out);
    }
  }
  return out;
}

/**
 * Our schema with the length caps and messageExpressions upstream lacks set aside: every pattern-checked
 * string has a cap here, so no field can make a pattern or a parser work in proportion to an attacker's
 * input; a messageExpression names the values a rule refused, next to upstream's unchanged message.
 * Nothing else may differ.
 */
function withoutAddedLengthCaps(ours: unknown, theirs: unknown): unknown {
  if (Array.isArray(ours)) return ours.map((item, i) => withoutAddedLengthCaps(item, Array.isArray(theirs) ? theirs[i] : undefined));
  if (!ours || typeof ours !== 'object') return ours;
  const upstream = (theirs && typeof theirs === 'object' ? theirs : {}) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ours)) {
    if (key === 'maxLength' && 'pattern' in ours && !('maxLength' in upstream)) continue;
    if (key === 'messageExpression' && !('messageExpression' in upstream)) continue;
    kept[key] = withoutAddedLengthCaps(value, upstream[key]);
  }
  return kept;
}

describe('generated CRDs', () => {
  it.each(CrdDefinitions.map((def) => [crdFileName(def), def] as const))(
    '%s is checked in and up to date (run `npm run gen:crds`)',
    (file, def) => {
      expect(readFileSync(join(crdDir, file), 'utf8')).toBe(renderCrd(def));
    },
  );

  it('writes valid CRD YAML whose name is plural.group and whose schema round-trips', () => {
    for (const def of CrdDefinitions) {
      const crd = parse(renderCrd(def)) as ReturnType<typeof buildCrd>;
      expect(crd.metadata.name).toBe(`${def.plural}.${def.group}`);
      expect(crd.spec.scope).toBe('Cluster');
      expect(crd.spec.versions[0]?.schema.openAPIV3Schema).toEqual(openApiSchemaOf(def));
      expect(crd.spec.versions[0]?.subresources.status).toEqual({});
    }
  });

  it('gives every NodeClass a status with conditions and the v1alpha1 version', () => {
    for (const def of CrdDefinitions.filter((d) => d.kind.endsWith('NodeClass'))) {
      const schema = openApiSchemaOf(def);
      expect(def.version).toBe('v1alpha1');
      expect(schema.properties?.status?.properties?.conditions?.['x-kubernetes-list-type']).toBe('map');
      expect(schema.required).toEqual(['spec']);
    }
  });
});

describe.each([
  [NodePoolDefinition, 'karpenter.sh_nodepools.yaml', 18],
  [NodeClaimDefinition, 'karpenter.sh_nodeclaims.yaml', 9],
] as const)('%s CRD against upstream HEAD', (def, file, ruleCount) => {
  const upstream = loadUpstreamCrd(file);
  const upstreamVersion = upstream.spec.versions[0]!;
  const ours = buildCrd(def);
  const ourVersion = ours.spec.versions[0]!;

  it('has the same openAPIV3Schema once descriptions, the added length caps and messageExpressions are set aside', () => {
    const theirs = withoutDescriptions(upstreamVersion.schema.openAPIV3Schema);
    expect(withoutAddedLengthCaps(withoutDescriptions(ourVersion.schema.openAPIV3Schema), theirs)).toEqual(theirs);
  });

  it(`carries all ${ruleCount} upstream CEL rules with the exact messages`, () => {
    const upstreamRules = collectRules(upstreamVersion.schema.openAPIV3Schema);
    expect(upstreamRules).toHaveLength(ruleCount);
    const byText = (a: RuleLike, b: RuleLike) => (a.rule + a.message < b.rule + b.message ? -1 : 1);
    expect(collectRules(ourVersion.schema.openAPIV3Schema).sort(byText)).toEqual(upstreamRules.sort(byText));
  });

  it('has the same names, scope, printer columns and subresources', () => {
    expect(ours.spec.group).toBe(upstream.spec.group);
    expect(ours.spec.scope).toBe(upstream.spec.scope);
    expect(ours.spec.names).toEqual(upstream.spec.names);
    expect(withoutDescriptions(ourVersion.additionalPrinterColumns)).toEqual(withoutDescriptions(upstreamVersion.additionalPrinterColumns));
    expect(ourVersion.subresources).toEqual(upstreamVersion.subresources);
  });
});
