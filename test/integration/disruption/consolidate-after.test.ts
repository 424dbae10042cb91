// consolidateAfter on OVH (where a scaled-down pod's node went at once) and across an operator restart; the
// other clouds' and the no-grace cases are `npm run chaos:long` (the rule is shared: src/domain/disruption).
import { describe, it } from 'vitest';
import { caseTitle, runConsolidateAfterCase, suiteCases } from './consolidate-after.scenario.js';

describe.each(suiteCases)(caseTitle, (c) => {
  it('keeps the emptied node consolidateAfter after its last pod left, then deletes it', { timeout: 120_000 }, () =>
    runConsolidateAfterCase(c),
  );
});
