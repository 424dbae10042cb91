/**
 * Where the serving certificate comes from: PEM strings (tests, self-managed certificates) or files that
 * are watched, so a rotated Secret (kubelet swaps the mounted files) is picked up without a restart.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';

export interface TlsMaterial {
  certPem: string;
  keyPem: string;
}

export type CertificateSource = TlsMaterial | { certFile: string; keyFile: string; pollIntervalMs?: number };

export class CertificateLoadError extends Error {
  constructor(file: string, cause: unknown) {
    super(`loading serving certificate: reading ${file}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'CertificateLoadError';
  }
}

function readPem(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CertificateLoadError(file, error);
  }
}

export function loadCertificate(source: CertificateSource): TlsMaterial {
  return 'certPem' in source ? source : { certPem: readPem(source.certFile), keyPem: readPem(source.keyFile) };
}

/**
 * Calls `onChange` with the new material whenever the files change; returns the function that stops
 * watching. PEM sources never change. Polling (fs.watchFile) survives the symlink swap of Secret volumes.
 */
export function watchCertificate(
  source: CertificateSource,
  onChange: (material: TlsMaterial) => void,
  onError: (error: unknown) => void,
): () => void {
  if ('certPem' in source) return () => undefined;
  const interval = source.pollIntervalMs ?? 10_000;
  const reload = (): void => {
    try {
      onChange(loadCertificate(source));
    } catch (error) {
      onError(error);
    }
  };
  watchFile(source.certFile, { interval, persistent: false }, reload);
  watchFile(source.keyFile, { interval, persistent: false }, reload);
  return () => {
    unwatchFile(source.certFile, reload);
    unwatchFile(source.keyFile, reload);
  };
}
