/** Data output shared by the commands: `-o json` as kubectl indents it, `-o yaml` as YAML 1.2 block style. */
import type { OutputFormat } from './flags.js';

/**
 * The YAML writer is loaded only for `-o yaml`: it is a tenth of a second of start-up every other run saves.
 * It quotes as a YAML 1.1 writer does (`"2026-11-22"`, `"yes"`), as kubectl does, so YAML 1.1 readers
 * (go-yaml, PyYAML) read the same strings a YAML 1.2 reader does.
 */
export async function formatData(format: Extract<OutputFormat, 'json' | 'yaml'>, value: unknown): Promise<string> {
  if (format === 'json') return JSON.stringify(value, null, 2) + '\n';
  const { stringify } = await import('yaml');
  return stringify(value, { lineWidth: 0, version: '1.1' });
}

/** Aligned columns, header first, two spaces apart, the last column unpadded (kubectl's table printer). */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => rows.reduce((max, r) => Math.max(max, (r[i] ?? '').length), 0));
  const line = (r: readonly string[]): string =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return rows.map(line).join('\n') + '\n';
}
