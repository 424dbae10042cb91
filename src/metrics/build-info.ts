/**
 * `karpenter_build_info`'s labels with upstream's names: `goversion` carries the Node.js version and `goarch` the
 * process's architecture, so upstream's "which version runs where" panels read ours.
 */
import { VERSION } from '../util/version.js';

export function buildInfoLabels(commit: string | undefined): { version: string; goversion: string; goarch: string; commit: string } {
  return { version: VERSION, goversion: process.version, goarch: process.arch, commit: commit ?? '' };
}
