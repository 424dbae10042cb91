/** Top-level request routing: health, version, discovery, then resources; every error becomes a Status. */
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { notFoundPath } from '../errors.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { openApiV3GroupVersion, openApiV3Root } from './openapi.js';
import { coreVersions, group, groupList, resourceList, versionInfo } from './discovery.js';
import { isBodyFault, type FaultInjector } from '../../../emulators/faults.js';
import { sendError, sendJson, spoilReply } from './http-io.js';
import { parseTarget } from './request-target.js';
import { type HandlerDeps, handleResource } from './resource-handler.js';

const healthPaths = new Set(['/healthz', '/readyz', '/livez']);

export function createRouter(registry: ResourceRegistry, deps: HandlerDeps, serverAddress: () => string, faults?: FaultInjector) {
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (healthPaths.has(url.pathname)) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (url.pathname === '/version') return sendJson(res, 200, versionInfo());
    if (url.pathname === '/openapi/v3') return sendJson(res, 200, openApiV3Root(registry));
    if (url.pathname.startsWith('/openapi/v3/')) {
      const doc = openApiV3GroupVersion(registry, url.pathname.slice('/openapi/v3/'.length));
      if (!doc) throw notFoundPath();
      return sendJson(res, 200, doc);
    }
    const target = parseTarget(url.pathname, registry);
    switch (target.kind) {
      case 'root':
        if (target.path === '/api') return sendJson(res, 200, coreVersions(serverAddress()));
        if (target.path === '/apis') return sendJson(res, 200, groupList(registry));
        throw notFoundPath();
      case 'group': {
        const doc = group(registry, target.group);
        if (!doc) throw notFoundPath();
        return sendJson(res, 200, doc);
      }
      case 'groupVersion': {
        const doc = resourceList(registry, target.group, target.version);
        if (!doc) throw notFoundPath();
        return sendJson(res, 200, doc);
      }
      case 'resource':
        return handleResource(
          req,
          res,
          {
            type: target.type,
            namespace: target.namespace,
            name: target.name,
            subresource: target.subresource,
            query: url.searchParams,
            watch: target.legacyWatch || url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1',
          },
          deps,
        );
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    deps.audit?.observe(req, res);
    // Only body faults apply here: the API server's other failures are its own Status errors.
    const fault = faults?.decide({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] ?? '/' });
    if (isBodyFault(fault)) spoilReply(res, fault);
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else sendError(res, err);
    });
  };
}
