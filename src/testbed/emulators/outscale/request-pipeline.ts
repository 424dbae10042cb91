/**
 * One request through the emulated OAPI gateway: route `POST /api/v1/<Action>`, parse the JSON body, verify
 * the SigV4 signature (except for the public calls), ask the fault injector and render the fault as Outscale
 * would, run the handler, add `ResponseContext.RequestId`, log the call. Nothing a client sends makes it 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DropConnection, dropConnection, type FaultLog, openExchange, triageFault } from '../fault-pipeline.js';
import { applyReplyFault, type CallLog, damagedBody, type Fault, type FaultInjector, type RequestInfo } from '../faults.js';
import type { EmulatorContext } from './context.js';
import { launchTargetOf } from './create-vms.js';
import { ACTIONS, PUBLIC_ACTIONS } from './routes.js';
import { verifySignature, type OscCredential } from './sigv4.js';
import { errorBody, OscWireError, wireErrors } from './wire-errors.js';

export interface PipelineDeps {
  ctx: EmulatorContext;
  faults: FaultInjector;
  calls: CallLog;
  credentials: OscCredential[];
  maxSkewMs: number;
  /** Aborted when the emulator closes, releasing requests held by timeout/slow faults. */
  closing: AbortSignal;
}

/** Above the 500 KiB user data limit once base64-encoded, with room for the rest of a CreateVms. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw wireErrors.invalidValue('body', `${size} bytes`, `a request body of at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function parseBody(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw wireErrors.malformedBody(err instanceof Error ? err.message : String(err));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw wireErrors.malformedBody('the body must be a json object');
  return parsed as Record<string, unknown>;
}

function launchTarget(ctx: EmulatorContext, action: string, body: Record<string, unknown>): { instanceType?: string; zone?: string } {
  if (action === 'CreateVms') return launchTargetOf(ctx, body);
  if (action === 'CreateFlexibleGpu') {
    return {
      instanceType: typeof body.ModelName === 'string' ? body.ModelName : undefined,
      zone: typeof body.SubregionName === 'string' ? body.SubregionName : undefined,
    };
  }
  return {};
}

async function applyFault(
  deps: PipelineDeps,
  fault: Fault,
  action: string,
  target: { instanceType?: string; zone?: string },
): Promise<void> {
  switch (fault.kind) {
    case 'server-error':
      throw wireErrors.internal(fault.status);
    case 'throttle':
      throw wireErrors.throttled(fault.retryAfterSeconds);
    case 'out-of-stock':
      throw wireErrors.capacity(target.instanceType ?? 'unknown', target.zone ?? deps.ctx.subregions[0] ?? '');
    case 'quota-exceeded':
      throw action === 'CreateFlexibleGpu'
        ? wireErrors.quota('10030', 'the limit of flexible gpus for this account is reached')
        : wireErrors.quota('10010', 'the limit of vms for this account is reached');
    case 'slow':
      await deps.ctx.clock.sleep(fault.delayMs, deps.closing).catch(() => undefined);
      return;
    case 'timeout':
      await deps.ctx.clock.sleep(fault.afterMs, deps.closing).catch(() => undefined);
      throw new DropConnection();
    default:
      return; // body and reply faults act on the answer once the handler has run
  }
}

async function dispatch(deps: PipelineDeps, req: IncomingMessage, log: FaultLog): Promise<Record<string, unknown>> {
  const { ctx } = deps;
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const raw = await readBody(req);
  const action = /^\/api\/v1\/([A-Za-z]+)\/?$/.exec(url.pathname)?.[1];
  if (!action || !ACTIONS[action] || req.method !== 'POST') throw wireErrors.unknownAction(action ?? url.pathname);
  log.action = action;
  if (!PUBLIC_ACTIONS.has(action)) {
    verifySignature(
      { method: req.method, path: url.pathname, query: url.search.slice(1), headers: req.headers, body: raw },
      { credentials: deps.credentials, region: ctx.region, now: ctx.clock.now(), maxSkewMs: deps.maxSkewMs },
    );
  }
  const body = parseBody(raw);
  const target = launchTarget(ctx, action, body);
  const request: RequestInfo = { method: 'POST', path: url.pathname, action, ...target };
  await triageFault(deps.faults, request, log, (fault) => applyFault(deps, fault, action, target));
  return (ACTIONS[action] as (typeof ACTIONS)[string])(ctx, body);
}

function send(res: ServerResponse, status: number, payload: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) });
  res.end(payload);
}

export async function handleRequest(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const x = openExchange(req, res, deps.calls, deps.ctx.clock.now(), 'POST');
  const requestId = deps.ctx.ids.requestId();
  const log: FaultLog = {};
  let status = 200;
  try {
    const result = await dispatch(deps, req, log);
    const payload = JSON.stringify({ ...result, ResponseContext: { RequestId: requestId } });
    if (log.bodyFault) {
      send(res, 200, damagedBody(log.bodyFault, { ...result, ResponseContext: { RequestId: requestId } }));
      return;
    }
    const outcome = log.reply ? await applyReplyFault(log.reply.fault, log.reply.request, 200, payload) : ({ send: 'as-is' } as const);
    if (outcome.send === 'none') throw new DropConnection();
    send(res, 200, outcome.send === 'replaced' ? outcome.payload : payload);
  } catch (err) {
    if (err instanceof DropConnection) return dropConnection(x, log);
    // Anything but a wire error is an emulator bug: answer like the API's own internal error.
    const wire = err instanceof OscWireError ? err : wireErrors.internal(500);
    status = wire.status;
    send(res, wire.status, errorBody(wire, requestId), wire.headers);
  }
  deps.calls.add({ at: x.at, method: x.method, path: x.path, action: log.action, status, fault: log.fault });
}
