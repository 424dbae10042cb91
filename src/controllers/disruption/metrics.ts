/**
 * Disruption's own metric on top of Karpenter's: the hourly price removed by each command, so the savings
 * consolidation brings are visible. Registered once on the service's registry.
 */
import { Counter, type Registry } from 'prom-client';

export function savingsCounter(registry: Registry): Counter<'reason' | 'decision'> {
  const name = 'karpenter_eu_disruption_savings_eur_per_hour_total';
  const existing = registry.getSingleMetric(name) as Counter<'reason' | 'decision'> | undefined;
  return (
    existing ??
    new Counter({
      name,
      help: 'Hourly price (EUR/h) removed by executed disruption commands: price before minus price after. Labeled by reason and decision.',
      labelNames: ['reason', 'decision'],
      registers: [registry],
    })
  );
}
