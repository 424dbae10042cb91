/**
 * The pod's network on loopback: each port the service listens on gets a free loopback port, and a Service port
 * reaches it only as kube-proxy would — Service port → targetPort (a container port's name or number) → a port
 * something listens on, with the Service's selector matching the pod's labels. Anything else is the error the
 * demo stops on, naming the Service, the port and what listens.
 */
import type { V1Container, V1Service } from '@kubernetes/client-node';
import { ChartDemoError } from './errors.js';

export interface Listener {
  /** What the service was configured to listen on (its own flag/variable), e.g. `webhook (WEBHOOK_PORT)`. */
  what: string;
  containerPort: number;
  loopbackPort: number;
}

export class PodNetwork {
  constructor(
    private readonly container: V1Container,
    private readonly podLabels: Record<string, string>,
    private readonly listeners: readonly Listener[],
  ) {}

  private listening(): string {
    return this.listeners.map((l) => `${l.containerPort} (${l.what})`).join(', ');
  }

  private containerPortOf(service: V1Service, targetPort: number | string): number {
    if (typeof targetPort === 'number') return targetPort;
    if (/^\d+$/.test(targetPort)) return Number(targetPort);
    const named = this.container.ports?.find((p) => p.name === targetPort);
    if (!named)
      throw new ChartDemoError(
        `Service ${service.metadata?.namespace}/${service.metadata?.name} targets port "${targetPort}", which no port of container ${this.container.name} is named (named: ${(this.container.ports ?? []).map((p) => `${p.name ?? '?'}=${p.containerPort}`).join(', ') || 'none'})`,
      );
    return named.containerPort;
  }

  /** The loopback port behind `port` of this Service. */
  loopbackPort(service: V1Service, port: number): number {
    const id = `Service ${service.metadata?.namespace}/${service.metadata?.name}`;
    const selector = service.spec?.selector ?? {};
    const unmatched = Object.entries(selector).filter(([k, v]) => this.podLabels[k] !== v);
    if (Object.keys(selector).length === 0 || unmatched.length > 0)
      throw new ChartDemoError(
        `${id} selects no pod of the release: selector ${JSON.stringify(selector)}, pod labels ${JSON.stringify(this.podLabels)}`,
      );
    const entry = service.spec?.ports?.find((p) => p.port === port);
    if (!entry)
      throw new ChartDemoError(`${id} has no port ${port} (ports: ${(service.spec?.ports ?? []).map((p) => p.port).join(', ') || 'none'})`);
    const containerPort = this.containerPortOf(service, entry.targetPort ?? port);
    const listener = this.listeners.find((l) => l.containerPort === containerPort);
    if (!listener)
      throw new ChartDemoError(
        `${id} port ${port} reaches container port ${containerPort}, where the service does not listen (it listens on ${this.listening()})`,
      );
    return listener.loopbackPort;
  }
}
