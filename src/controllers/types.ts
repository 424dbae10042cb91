/**
 * The shape every controller shares, so the operator can run them as plug-ins while it leads and stop them
 * when it loses the lease or shuts down.
 */
export interface Controller {
  /** Stable name for logs and metrics, e.g. `provisioning`, `nodeclaim.lifecycle`. */
  readonly name: string;
  /**
   * Runs until `signal` aborts, then resolves once in-flight work has settled. Rejects only on a fault the
   * controller cannot recover from (the operator then exits non-zero so the pod restarts).
   */
  start(signal: AbortSignal): Promise<void>;
}
