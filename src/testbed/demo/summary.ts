/** The demo's closing table: every node created or terminated, with the step, the reason and the cost. */
import type { DemoSummary } from './scenario.js';
import { euros } from './steps/describe.js';

function table(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

export function formatSummary(summary: DemoSummary): string {
  const header = ['NODECLAIM', 'NODEPOOL', 'FLAVOR', 'ZONE', 'PRICE', 'CREATED IN', 'TERMINATED IN', 'REASON'];
  const rows = summary.nodes.map((n) => [
    n.name,
    n.nodePool,
    n.instanceType ?? '-',
    n.zone ?? '-',
    n.pricePerHour === undefined ? '-' : euros(n.pricePerHour),
    n.createdInStep,
    n.terminatedInStep ?? '(running)',
    n.terminatedInStep ? (n.reason ?? 'unknown') : '',
  ]);
  const created = summary.nodes.length;
  const terminated = summary.nodes.filter((n) => n.terminatedInStep).length;
  const steps = summary.steps.map((s) =>
    `  ${s.status === 'passed' ? '✓' : s.status === 'skipped' ? '–' : '✗'} ${s.id.padEnd(14)} ${euros(s.hourlyCostAfter).padStart(13)} after  ${s.status === 'passed' ? '' : s.detail}`.trimEnd(),
  );
  return [
    '',
    '── summary ──',
    ...table([header, ...rows]),
    '',
    `nodes created: ${created}, terminated: ${terminated}`,
    `hourly cost: peak ${euros(summary.peakHourlyCost)} → now ${euros(summary.finalHourlyCost)}`,
    'steps:',
    ...steps,
    `${summary.ok ? 'demo passed' : 'demo FAILED'} in ${summary.elapsedSeconds.toFixed(1)}s`,
    '',
  ].join('\n');
}
