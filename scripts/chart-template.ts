/**
 * `helm template` for the karpenter-eu chart without Helm (test-only renderer in test/chart/render/).
 *   npx tsx scripts/chart-template.ts [-f values.yaml]… [--set key.path=value]… [--namespace NS] [--release NAME]
 * Prints the CRDs and every rendered object as one YAML stream, then NOTES.txt on stderr.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { renderChart } from '../test/chart/render/chart.js';
import { mergeValues } from '../test/chart/render/values.js';

const chartDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'manifests', 'chart');

class ArgumentError extends Error {}

/** `a.b.c=value` as a nested map; `true`/`false`/numbers are typed, like Helm's --set. */
function setValue(assignment: string): Record<string, unknown> {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new ArgumentError(`parsing --set: ${JSON.stringify(assignment)} is not key.path=value`);
  const raw = assignment.slice(eq + 1);
  const value: unknown = raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  return assignment
    .slice(0, eq)
    .split('.')
    .reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

async function main(argv: string[]): Promise<number> {
  let values: unknown = {};
  let namespace: string | undefined;
  let releaseName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, next] = [argv[i], argv[i + 1]];
    if (next === undefined) throw new ArgumentError(`parsing arguments: ${flag} needs a value`);
    if (flag === '-f' || flag === '--values') values = mergeValues(values, YAML.parse(readFileSync(next, 'utf8')));
    else if (flag === '--set') values = mergeValues(values, setValue(next));
    else if (flag === '--namespace' || flag === '-n') namespace = next;
    else if (flag === '--release') releaseName = next;
    else throw new ArgumentError(`parsing arguments: unknown flag ${JSON.stringify(flag)}; accepted: -f, --set, --namespace, --release`);
    i++;
  }
  const rendered = await renderChart(chartDir, { values: values as Record<string, unknown>, namespace, releaseName });
  const stream = rendered.documents.map((d) => `# Source: karpenter-eu/${d.source}\n${YAML.stringify(d.object, { lineWidth: 0 })}`);
  process.stdout.write(stream.join('---\n'));
  process.stderr.write(rendered.notes);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof ArgumentError ? 2 : 1;
  },
);
