/**
 * Request and response classes for Node's HTTP(S) server whose prototypes are the express app's own
 * `app.request` / `app.response`.
 *
 * express gives every request its methods by changing the prototype of Node's req/res objects after they are
 * built (Object.setPrototypeOf in app.handle). V8 then keeps each request's objects alive past two scavenges,
 * so every request's garbage is promoted and copied, which shows as GC pauses at the webhooks' p99
 * (`npm run bench:admission`). When Node builds req/res with that prototype already, express's call changes
 * nothing, and the request's garbage dies young. express itself is used unchanged.
 */
import http from 'node:http';
import type { Express } from 'express';

export interface ServerClasses {
  IncomingMessage: typeof http.IncomingMessage;
  ServerResponse: typeof http.ServerResponse;
}

export function expressServerClasses(app: Express): ServerClasses {
  // Node's own constructors are plain functions: call them on an object that already has the app's prototype.
  function AppRequest(this: http.IncomingMessage, socket: ConstructorParameters<typeof http.IncomingMessage>[0]): void {
    (http.IncomingMessage as unknown as (this: http.IncomingMessage, s: typeof socket) => void).call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown): void {
    (http.ServerResponse as unknown as (this: http.ServerResponse, r: http.IncomingMessage, o?: unknown) => void).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
  };
}
