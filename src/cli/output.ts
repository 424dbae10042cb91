/** Data output shared by the commands: `-o json` as kubectl indents it, `-o yaml` as YAML 1.2 block style. */
import type { OutputFormat } from './flags.js';

/** The YAML writer is loaded only for `-o yaml`: it is a tenth of a second of start-up every other run saves. */
export async function formatData(format: Extract<OutputFormat, 'json' | 'yaml'>, value: unknown): Promise<string> {
  if (format === 'json') return JSON.stringify(value, null, 2) + '\n';
  const { stringify } = await import('yaml');
  return stringify(value, { lineWidth: 0 });
}

/** Aligned columns, header first, two spaces apart, trailing blanks trimmed (kubectl's table printer). */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}
