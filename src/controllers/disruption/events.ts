/** Events disruption writes on the NodeClaims it acts on (upstream DisruptionTerminating / Expired). */
import { NodeClaimApiVersion } from '../../apis/index.js';
import type { DisruptionCommand } from '../../domain/disruption/index.js';
import type { EventRecorder } from '../../kube/index.js';

function involved(name: string) {
  return { apiVersion: NodeClaimApiVersion, kind: 'NodeClaim', name };
}

export async function publishCommandEvents(recorder: EventRecorder | undefined, command: DisruptionCommand): Promise<void> {
  if (!recorder) return;
  const price = `${command.pricePerHourBefore.toFixed(4)} → ${command.pricePerHourAfter.toFixed(4)} EUR/h`;
  const message = `Disrupting NodeClaim: ${command.reason}/${command.decision === 'delete' ? 'Delete' : 'Replace'} (${price}): ${command.message}`;
  await Promise.all(
    command.candidates.map((name) =>
      recorder.publish({ involvedObject: involved(name), type: 'Normal', reason: 'DisruptionTerminating', message }),
    ),
  );
}

export async function publishExpiredEvent(recorder: EventRecorder | undefined, nodeClaim: string): Promise<void> {
  await recorder?.publish({
    involvedObject: involved(nodeClaim),
    type: 'Normal',
    reason: 'Expired',
    message: 'Deleting NodeClaim: expireAfter elapsed',
  });
}
