/** Seeded identifiers, so a failing test replays with the same pool, node and instance ids. */
import { seededRandom } from '../../../util/seeded-random.js';

export class IdGenerator {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed ^ 0x0f4c10d);
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += Math.floor(this.random() * 16).toString(16);
    return out;
  }

  /** A version-4 shaped UUID (MKS pool, node and cluster ids; OpenStack instance ids). */
  uuid(): string {
    const variant = (8 + Math.floor(this.random() * 4)).toString(16);
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }

  /** A Public Cloud project id (`serviceName`): 32 lower-case hex digits. */
  serviceName(): string {
    return this.hex(32);
  }

  /** Application / consumer keys and secrets: alphanumerics, as OVH issues them. */
  key(length: number): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.random() * alphabet.length)];
    return out;
  }
}
