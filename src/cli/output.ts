/** Data output shared by the commands: `-o json` as kubectl indents it, `-o yaml` as YAML 1.2 block style. */
import { stringify } from 'yaml';
import type { OutputFormat } from './flags.js';

export function formatData(format: Extract<OutputFormat, 'json' | 'yaml'>, value: unknown): string {
  return format === 'json' ? JSON.stringify(value, null, 2) + '\n' : stringify(value, { lineWidth: 0 });
}

/** Aligned columns, header first, two spaces apart, trailing blanks trimmed (kubectl's table printer). */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}
