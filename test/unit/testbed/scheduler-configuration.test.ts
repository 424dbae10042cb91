import { describe, expect, it } from 'vitest';
import { extenderFromConfiguration } from '../../../src/testbed/cluster/index.js';

const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const noFiles = {
  readFile: (path: string): string => {
    throw new Error(`no file ${path}`);
  },
};

describe('reading a KubeSchedulerConfiguration extender as kube-scheduler does', () => {
  it('decodes tlsConfig.caData from base64 and parses httpTimeout as a Go duration', () => {
    const config = extenderFromConfiguration(
      {
        urlPrefix: 'https://x.ns.svc:8444/scheduler',
        enableHTTPS: true,
        httpTimeout: '1500ms',
        tlsConfig: { serverName: 'x.ns.svc', caData: Buffer.from(pem).toString('base64') },
      },
      noFiles,
    );
    expect(config).toMatchObject({
      urlPrefix: 'https://x.ns.svc:8444/scheduler',
      httpTimeoutMs: 1500,
      tlsConfig: { insecure: false, caData: pem, serverName: 'x.ns.svc' },
    });
  });

  it("reads tlsConfig.caFile from the scheduler pod's files", () => {
    const config = extenderFromConfiguration(
      { urlPrefix: 'https://x/scheduler', enableHTTPS: true, tlsConfig: { caFile: '/ca/ca.crt' } },
      { readFile: (path) => (path === '/ca/ca.crt' ? pem : '') },
    );
    expect(config.tlsConfig).toEqual({ insecure: false, caData: pem });
  });

  it('enableHTTPS without a CA does not verify the server (makeTransport); without enableHTTPS the system roots apply', () => {
    expect(
      extenderFromConfiguration({ urlPrefix: 'https://x/scheduler', enableHTTPS: true, tlsConfig: { caData: '' } }, noFiles).tlsConfig,
    ).toEqual({ insecure: true });
    expect(extenderFromConfiguration({ urlPrefix: 'https://x/scheduler' }, noFiles).tlsConfig).toEqual({ insecure: false });
  });

  it('refuses caData that is not base64 of a PEM certificate, naming the extender', () => {
    expect(() => extenderFromConfiguration({ urlPrefix: 'https://x/scheduler', tlsConfig: { caData: pem } }, noFiles)).toThrow(
      'tlsConfig.caData of "https://x/scheduler" is not base64 of a PEM certificate',
    );
  });
});
