/** The Prometheus text format read back into families, as a scraper sees `/metrics`. */
export interface ScrapedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ScrapedFamily {
  name: string;
  type: string;
  help: string;
  samples: ScrapedSample[];
}

const suffixes: Readonly<Record<string, readonly string[]>> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
};

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const re = /(\w+)="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    labels[m[1] ?? ''] = (m[2] ?? '').replaceAll('\\"', '"').replaceAll('\\n', '\n').replaceAll('\\\\', '\\');
  }
  return labels;
}

function familyOf(families: Map<string, ScrapedFamily>, sample: string): ScrapedFamily | undefined {
  const direct = families.get(sample);
  if (direct) return direct;
  for (const [type, ends] of Object.entries(suffixes)) {
    for (const end of ends) {
      if (!sample.endsWith(end)) continue;
      const family = families.get(sample.slice(0, -end.length));
      if (family?.type === type) return family;
    }
  }
  return undefined;
}

export function parseScrape(text: string): Map<string, ScrapedFamily> {
  const families = new Map<string, ScrapedFamily>();
  for (const line of text.split('\n')) {
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name = '', rest = ''] = meta;
      const family = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') family.type = rest;
      else family.help = rest;
      families.set(name, family);
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(\{.*\})? (\S+)/.exec(line);
    if (!sample) continue;
    const [, name = '', labels = '', value = ''] = sample;
    familyOf(families, name)?.samples.push({ name, labels: parseLabels(labels), value: Number(value) });
  }
  return families;
}

/** Label names a family's series carry, without the `le` and `quantile` a histogram or summary adds. */
export function labelNamesOf(family: ScrapedFamily): string[] {
  const names = new Set<string>();
  for (const s of family.samples) for (const k of Object.keys(s.labels)) if (k !== 'le' && k !== 'quantile') names.add(k);
  return [...names].sort();
}

export async function scrape(metricsUrl: string): Promise<Map<string, ScrapedFamily>> {
  const res = await fetch(`${metricsUrl}/metrics`);
  return parseScrape(await res.text());
}
