/** Maps HTTP verbs on a resource target to the object service, the deleter, lists, watches and subresources. */
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type Clock } from '../../../../util/clock.js';
import { type JsonValue } from '../../../../util/json-patch.js';
import { type Deleter, parseDeleteOptions } from '../deletion.js';
import { badRequest, methodNotAllowed } from '../errors.js';
import { listObjects } from '../list.js';
import { parseListOptions } from '../list-options.js';
import { type ObjectService } from '../object-service.js';
import { patchTypeOf } from '../patching.js';
import { type PodSubresources, successStatus } from '../pod-subresources.js';
import { apiVersionOf, type ResourceType } from '../resource-type.js';
import { type ScaleSubresource } from '../scale-subresource.js';
import { type WatchSettings, WatchStream } from '../watch-stream.js';
import { type AuditLog } from '../audit.js';
import { adminUser, type WriteContext } from '../write-context.js';
import { answerInProtobuf, decodeBody, readBody, sendJson } from './http-io.js';
import { negotiateResponse } from './negotiation.js';
import { messageType } from '../protobuf/kube-protobuf.js';
import { type IncludeObject, tableRequest, toTable } from './table.js';
import { type KubeObject } from '../kube-object.js';

export interface ResourceRequest {
  type: ResourceType;
  namespace: string;
  name: string;
  subresource: string;
  query: URLSearchParams;
  watch: boolean;
}

export interface HandlerDeps {
  objects: ObjectService;
  deleter: Deleter;
  pods: PodSubresources;
  scale: ScaleSubresource;
  clock: Clock;
  watchSettings: WatchSettings;
  openWatches: Set<WatchStream>;
  /** Authenticates requests (writes are made as the token's user) and records every write. */
  audit?: AuditLog;
}

function writeContext(req: IncomingMessage, query: URLSearchParams, audit?: AuditLog): WriteContext {
  const dryRun = query.getAll('dryRun');
  if (dryRun.some((v) => v !== 'All')) throw badRequest(`Invalid dry run value: ${dryRun.join(',')}; accepted: All`);
  return { dryRun: dryRun.length > 0, userInfo: audit?.authenticate(req) ?? adminUser, warnings: [] };
}

export async function handleResource(req: IncomingMessage, res: ServerResponse, target: ResourceRequest, deps: HandlerDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const { type, namespace, name, subresource, query } = target;
  if (type.namespaced && !namespace && (name || method !== 'GET')) throw methodNotAllowed();
  const ctx = writeContext(req, query, deps.audit);
  // Built-in kinds have a protobuf form (client-go's typed clients send and ask for it); custom resources do not.
  const protobufServed = () => !type.crdName && messageType(apiVersionOf(type), type.kind) !== undefined;
  if (negotiateResponse(req.headers.accept, () => !target.watch && protobufServed()) === 'protobuf') answerInProtobuf(res);
  const rawBody = method === 'GET' ? undefined : await readBody(req);
  const body = rawBody && decodeBody(rawBody, req.headers['content-type'], method === 'PATCH', protobufServed);
  if (type.group === '' && type.plural === 'bindings') {
    // The older form of pods/binding: POST namespaces/{ns}/bindings names the pod in the body.
    if (method !== 'POST' || name) throw methodNotAllowed();
    const podName = (body as { metadata?: { name?: string } } | undefined)?.metadata?.name ?? '';
    if (!podName) throw badRequest('Binding.metadata.name is required');
    return sendJson(res, 201, await deps.pods.bind(namespace, podName, body, ctx), ctx.warnings);
  }
  if (!name) {
    if (method === 'GET' && target.watch) return startWatch(res, target, deps, tableRequest(req.headers.accept, query));
    if (method === 'GET') {
      const list = listObjects(deps.objects.store, type, parseListOptions(type, namespace, query));
      const include = tableRequest(req.headers.accept, query);
      return sendJson(res, 200, include ? toTable(type, list.items, list.metadata, deps.clock.now(), include) : list);
    }
    if (method === 'POST') return sendJson(res, 201, await deps.objects.create(type, namespace, body, ctx), ctx.warnings);
    if (method === 'DELETE') return deleteCollection(res, target, body, ctx, deps);
    throw methodNotAllowed();
  }
  if (subresource === 'binding' || subresource === 'eviction') {
    if (method !== 'POST') throw methodNotAllowed();
    const reply =
      subresource === 'binding' ? await deps.pods.bind(namespace, name, body, ctx) : await deps.pods.evict(namespace, name, body, ctx);
    return sendJson(res, (reply as { code?: number }).code ?? 201, reply, ctx.warnings);
  }
  if (subresource === 'scale') return handleScale(req, res, target, body, ctx, deps);
  switch (method) {
    case 'GET': {
      const obj = deps.objects.get(type, namespace, name);
      const include = tableRequest(req.headers.accept, query);
      const metadata = { resourceVersion: obj.metadata.resourceVersion ?? '' };
      return sendJson(res, 200, include ? toTable(type, [obj], metadata, deps.clock.now(), include) : obj);
    }
    case 'PUT':
      return sendJson(res, 200, await deps.objects.update(type, namespace, name, body, subresource, ctx), ctx.warnings);
    case 'PATCH': {
      const patchType = patchTypeOf(req.headers['content-type'], type);
      if (body === undefined) throw badRequest('the patch body is empty');
      return sendJson(
        res,
        200,
        await deps.objects.patch(type, namespace, name, patchType, body as JsonValue, subresource, ctx),
        ctx.warnings,
      );
    }
    case 'DELETE': {
      if (subresource) throw methodNotAllowed();
      const result = await deps.deleter.delete(type, namespace, name, parseDeleteOptions(body, query), ctx);
      return sendJson(res, 200, result, ctx.warnings);
    }
    default:
      throw methodNotAllowed();
  }
}

async function handleScale(
  req: IncomingMessage,
  res: ServerResponse,
  target: ResourceRequest,
  body: unknown,
  ctx: WriteContext,
  deps: HandlerDeps,
): Promise<void> {
  const { type, namespace, name } = target;
  switch (req.method) {
    case 'GET':
      return sendJson(res, 200, deps.scale.get(type, namespace, name));
    case 'PUT':
      return sendJson(res, 200, await deps.scale.update(type, namespace, name, body, ctx), ctx.warnings);
    case 'PATCH': {
      if (body === undefined) throw badRequest('the patch body is empty');
      const patchType = patchTypeOf(req.headers['content-type'], { ...type, strategicMerge: true });
      return sendJson(res, 200, await deps.scale.patch(type, namespace, name, patchType, body as JsonValue, ctx), ctx.warnings);
    }
    default:
      throw methodNotAllowed();
  }
}

async function deleteCollection(
  res: ServerResponse,
  target: ResourceRequest,
  body: unknown,
  ctx: WriteContext,
  deps: HandlerDeps,
): Promise<void> {
  const { type, namespace, query } = target;
  const options = parseDeleteOptions(body, query);
  const list = listObjects(deps.objects.store, type, parseListOptions(type, namespace, query));
  for (const obj of list.items) {
    try {
      await deps.deleter.delete(type, obj.metadata.namespace ?? '', obj.metadata.name ?? '', options, ctx);
    } catch {
      // gone meanwhile: deletecollection is best effort per item, like the real server
    }
  }
  sendJson(res, 200, successStatus(200), ctx.warnings);
}

function startWatch(res: ServerResponse, target: ResourceRequest, deps: HandlerDeps, table: IncludeObject | undefined): void {
  const options = parseListOptions(target.type, target.namespace, target.query);
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const stream = new WatchStream(
    deps.objects.store,
    target.type,
    options,
    {
      write: (line) => void res.write(line),
      end: () => {
        deps.openWatches.delete(stream);
        if (!res.writableEnded) res.end();
      },
      onClose: (listener) => res.on('close', listener),
      // `kubectl get -w` asks for Tables: each event carries a one-row Table of the object.
      ...(table
        ? {
            encode: (object: KubeObject) =>
              toTable(target.type, [object], { resourceVersion: object.metadata.resourceVersion ?? '' }, deps.clock.now(), table),
          }
        : {}),
    },
    deps.clock,
    deps.watchSettings,
  );
  deps.openWatches.add(stream);
  stream.start();
}
