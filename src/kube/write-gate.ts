/**
 * A gate asked about every write at the last moment JavaScript sees it: when undici is about to put the request's
 * bytes on a connected socket. Between a caller's own check and that moment lie awaits (authentication, the
 * fetch machinery) and, since client-node makes a new connection per request, a TCP and TLS handshake over
 * several event-loop turns; a process frozen or starved in there would otherwise send its write whenever it
 * wakes. The gate runs synchronously right before the write, and again for every attempt undici makes of it.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { type Dispatcher, getGlobalDispatcher } from 'undici';

/** Throws to refuse the write (nothing is sent; the error is what the caller's request rejects with). */
export type WriteGate = (method: string, path: string) => void;

const Reads = new Set(['GET', 'HEAD', 'OPTIONS']);

type Handler = Dispatcher.DispatchHandler;
type Controller = Parameters<NonNullable<Handler['onRequestStart']>>[0];

/** The handler as is, but asking the gate before the request starts on its socket. */
function gatedHandler(handler: Handler, ask: () => void): Handler {
  return new Proxy(handler, {
    get(target, property, receiver) {
      if (property === 'onRequestStart') {
        return (controller: Controller, context: unknown) => {
          try {
            ask();
          } catch (refusal) {
            controller.abort(refusal as Error);
            return;
          }
          target.onRequestStart?.(controller, context);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function gateInterceptor(gate: WriteGate): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const method = (options.method ?? 'GET').toUpperCase();
    if (Reads.has(method)) return dispatch(options, handler);
    return dispatch(
      options,
      gatedHandler(handler, () => gate(method, options.path)),
    );
  };
}

/** client-node's authentication with every write of its requests passing through the gate. */
class GatedKubeConfig extends KubeConfig {
  constructor(private readonly gate: WriteGate) {
    super();
  }

  override async applySecurityAuthentication(context: Parameters<KubeConfig['applySecurityAuthentication']>[0]): Promise<void> {
    await super.applySecurityAuthentication(context);
    const dispatcher = context.getDispatcher() ?? getGlobalDispatcher();
    context.setDispatcher(dispatcher.compose(gateInterceptor(this.gate)));
  }
}

/** The same cluster, user and context as `kubeConfig`, with every write asked of `gate` before it is sent. */
export function gatedKubeConfig(kubeConfig: KubeConfig, gate: WriteGate): KubeConfig {
  const gated = new GatedKubeConfig(gate);
  gated.loadFromOptions({
    clusters: kubeConfig.getClusters(),
    contexts: kubeConfig.getContexts(),
    users: kubeConfig.getUsers(),
    currentContext: kubeConfig.getCurrentContext(),
  });
  return gated;
}
