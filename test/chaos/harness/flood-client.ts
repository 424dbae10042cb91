/**
 * The flood as another process sends it (a pod of the cluster): `tsx flood-client.ts <webhookUrl> <extenderUrl>
 * <requests> <bodyBytes>` floods both ports at once and prints the two outcomes as one JSON line. Kept out of the
 * test process, whose simulated API server would otherwise starve under the flood's own TLS work.
 */
import { flood, largeAdmissionReview, largeExtenderArgs } from './flood.js';

const [webhookUrl, extenderUrl, requests, bodyBytes] = process.argv.slice(2);
const count = Number(requests);
const bytes = Number(bodyBytes);
const [webhook, extender] = await Promise.all([
  flood(`${webhookUrl}/validate`, largeAdmissionReview(bytes), count),
  flood(`${extenderUrl}/scheduler/filter`, largeExtenderArgs(bytes), count),
]);
process.stdout.write(`${JSON.stringify({ webhook, extender })}\n`);
