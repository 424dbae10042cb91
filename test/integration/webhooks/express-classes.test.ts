import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressServerClasses } from '../../../webhooks/shared/express-classes.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

describe('expressServerClasses', () => {
  it('builds req/res with the app prototypes, so express finds them already in place and still works', async () => {
    const app = express();
    const seen: { requestProto: boolean; responseProto: boolean; isIncoming: boolean } = {
      requestProto: false,
      responseProto: false,
      isIncoming: false,
    };
    app.post('/echo', express.json(), (req, res) => {
      seen.requestProto = Object.getPrototypeOf(req) === app.request;
      seen.responseProto = Object.getPrototypeOf(res) === app.response;
      seen.isIncoming = req instanceof http.IncomingMessage;
      res.status(201).json({ got: (req.body as { x: number }).x, type: req.get('content-type') });
    });
    server = http.createServer(expressServerClasses(app), app);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const reply = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 42 }),
    });
    expect(reply.status).toBe(201);
    expect(await reply.json()).toEqual({ got: 42, type: 'application/json' });
    expect(seen).toEqual({ requestProto: true, responseProto: true, isIncoming: true });
  });
});
