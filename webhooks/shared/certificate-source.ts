/**
 * Where the serving certificate comes from: PEM strings (tests), files that are watched, so a rotated Secret
 * (kubelet swaps the mounted files) is picked up without a restart, or a LiveCertificate the service's own
 * certificate controller replaces when it renews.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';

export interface TlsMaterial {
  certPem: string;
  keyPem: string;
}

/** A certificate replaced in memory while the servers run: each replacement reaches every subscribed server. */
export class LiveCertificate {
  private material: TlsMaterial | undefined;
  private readonly listeners = new Set<(material: TlsMaterial) => void>();

  current(): TlsMaterial {
    if (!this.material) throw new Error('loading serving certificate: the service has not made its certificate yet');
    return this.material;
  }

  /** Replaces the certificate; subscribers hear of it only when it differs. */
  set(material: TlsMaterial): void {
    if (this.material?.certPem === material.certPem && this.material.keyPem === material.keyPem) return;
    this.material = material;
    for (const listener of this.listeners) listener(material);
  }

  subscribe(listener: (material: TlsMaterial) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export type CertificateSource = TlsMaterial | LiveCertificate | { certFile: string; keyFile: string; pollIntervalMs?: number };

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
  if (source instanceof LiveCertificate) return source.current();
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
  if (source instanceof LiveCertificate) return source.subscribe(onChange);
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
