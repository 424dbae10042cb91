/** Seeded identifiers, so a failing test replays with the same server and volume ids. */
import { seededRandom } from '../../../util/seeded-random.js';

export class IdGenerator {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed ^ 0x5ca1e);
  }

  private hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += Math.floor(this.random() * 16).toString(16);
    return out;
  }

  /** A version-4 shaped UUID. */
  uuid(): string {
    const variant = (8 + Math.floor(this.random() * 4)).toString(16);
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }

  /** An access key as Scaleway issues them: `SCW` + 17 upper-case alphanumerics. */
  accessKey(): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    let out = 'SCW';
    for (let i = 0; i < 17; i++) out += alphabet[Math.floor(this.random() * alphabet.length)];
    return out;
  }

  macAddress(): string {
    const bytes = ['de', '00', 'fa'];
    for (let i = 0; i < 3; i++) bytes.push(this.hex(2));
    return bytes.join(':');
  }

  privateIp(): string {
    return `10.${Math.floor(this.random() * 250)}.${Math.floor(this.random() * 250)}.${2 + Math.floor(this.random() * 250)}`;
  }

  publicIp(): string {
    return `51.15.${Math.floor(this.random() * 250)}.${2 + Math.floor(this.random() * 250)}`;
  }
}

/** A deterministic image id for a marketplace label, so the same label always resolves the same way. */
export function imageIdForLabel(label: string): string {
  let h = 0x811c9dc5;
  for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  const g = new IdGenerator(h);
  return g.uuid();
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
