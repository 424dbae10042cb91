/**
 * The simulated API server speaks Kubernetes protobuf where kube-apiserver does: bodies of built-in kinds in
 * `application/vnd.kubernetes.protobuf` (what client-go 0.32's typed clients, and so Helm 3.17, send with no fallback),
 * answers in protobuf to a client that prefers it, and refuses protobuf for custom resources with 415 / 406.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { decodeKubeProtobuf, encodeKubeProtobuf } from '../../../src/testbed/cluster/apiserver/protobuf/kube-protobuf.js';
import { nodePoolCrd, rawRequest } from './apiserver-fixtures.js';

const protobuf = 'application/vnd.kubernetes.protobuf';
/** What client-go 0.32's typed clients put in Accept. */
const typedClientAccept = `${protobuf},application/json`;

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer({ namespaces: ['default', 'karpenter'] });
  await rawRequest(`${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, 'POST', JSON.stringify(nodePoolCrd));
  await server.settle();
});

afterAll(() => server.close());

function releaseSecret(name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, labels: { owner: 'helm', name: 'r' } },
    data: { release: Buffer.from('H4sIAAAA').toString('base64') },
    type: 'helm.sh/release.v1',
  };
}

async function send(path: string, method: string, body: Buffer | string | undefined, headers: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

describe('protobuf bodies of built-in kinds', () => {
  it('a Secret posted in protobuf, as Helm stores a release, is created and answered in protobuf', async () => {
    const created = await send(
      '/api/v1/namespaces/karpenter/secrets',
      'POST',
      encodeKubeProtobuf(releaseSecret('sh.helm.release.v1.r.v1')),
      {
        'content-type': protobuf,
        accept: typedClientAccept,
      },
    );
    expect(created.status).toBe(201);
    expect(created.contentType).toBe(protobuf);
    const answer = decodeKubeProtobuf(created.body).object as { metadata: Record<string, unknown>; data: Record<string, string> };
    expect(answer.metadata).toMatchObject({
      name: 'sh.helm.release.v1.r.v1',
      namespace: 'karpenter',
      labels: { owner: 'helm', name: 'r' },
    });
    expect(answer.metadata.uid).toEqual(expect.any(String));
    expect(answer.data.release).toBe(Buffer.from('H4sIAAAA').toString('base64'));

    // The same object, read in JSON as kubectl does: Go's zero values of the protobuf body are not printed.
    const read = await rawRequest(`${server.url}/api/v1/namespaces/karpenter/secrets/sh.helm.release.v1.r.v1`, 'GET');
    expect(read.json).toMatchObject({ type: 'helm.sh/release.v1', data: { release: Buffer.from('H4sIAAAA').toString('base64') } });
    expect(Object.keys(read.json.metadata as object)).not.toContain('generateName');
  });

  it('a label-selected list is answered as a protobuf SecretList; a PUT and a protobuf DeleteOptions work', async () => {
    await send('/api/v1/namespaces/karpenter/secrets', 'POST', encodeKubeProtobuf(releaseSecret('sh.helm.release.v1.q.v1')), {
      'content-type': protobuf,
    });
    const list = await send('/api/v1/namespaces/karpenter/secrets?labelSelector=owner%3Dhelm', 'GET', undefined, {
      accept: typedClientAccept,
    });
    const decoded = decodeKubeProtobuf(list.body);
    expect(decoded.kind).toBe('SecretList');
    expect((decoded.object.items as Array<{ metadata: { name: string } }>).map((s) => s.metadata.name)).toContain(
      'sh.helm.release.v1.q.v1',
    );

    const current = decodeKubeProtobuf(
      (await send('/api/v1/namespaces/karpenter/secrets/sh.helm.release.v1.q.v1', 'GET', undefined, { accept: typedClientAccept })).body,
    ).object as { metadata: { labels: Record<string, string> } };
    current.metadata.labels.status = 'superseded';
    const updated = await send('/api/v1/namespaces/karpenter/secrets/sh.helm.release.v1.q.v1', 'PUT', encodeKubeProtobuf(current), {
      'content-type': protobuf,
      accept: typedClientAccept,
    });
    expect(updated.status).toBe(200);
    expect(decodeKubeProtobuf(updated.body).object).toMatchObject({ metadata: { labels: { status: 'superseded' } } });

    const deleted = await send(
      '/api/v1/namespaces/karpenter/secrets/sh.helm.release.v1.q.v1',
      'DELETE',
      encodeKubeProtobuf({ apiVersion: 'v1', kind: 'DeleteOptions' }),
      { 'content-type': protobuf, accept: typedClientAccept },
    );
    expect(deleted.status).toBe(200);
    const gone = await send('/api/v1/namespaces/karpenter/secrets/sh.helm.release.v1.q.v1', 'GET', undefined, {
      accept: typedClientAccept,
    });
    expect(gone.status).toBe(404);
    expect(gone.contentType).toBe(protobuf);
    expect(decodeKubeProtobuf(gone.body).object).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('a body that is not protobuf under the protobuf content type is a 400 naming the expected prefix', async () => {
    const sent = await send('/api/v1/namespaces/karpenter/secrets', 'POST', JSON.stringify(releaseSecret('x')), {
      'content-type': protobuf,
    });
    expect(sent.status).toBe(400);
    expect(JSON.parse(sent.body.toString()).message).toContain('does not appear to be a protobuf message');
  });
});

describe('custom resources have no protobuf form', () => {
  it('a protobuf body is 415, naming the media types accepted', async () => {
    const sent = await send('/apis/karpenter.sh/v1/nodepools', 'POST', encodeKubeProtobuf(releaseSecret('x')), {
      'content-type': protobuf,
    });
    expect(sent.status).toBe(415);
    expect(JSON.parse(sent.body.toString())).toMatchObject({
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    });
  });

  it("a typed client's Accept gets JSON; a client accepting protobuf only gets 406", async () => {
    const json = await send('/apis/karpenter.sh/v1/nodepools', 'GET', undefined, { accept: typedClientAccept });
    expect(json.status).toBe(200);
    expect(json.contentType).toBe('application/json');
    const refused = await send('/apis/karpenter.sh/v1/nodepools', 'GET', undefined, { accept: protobuf });
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml',
    });
  });
});
