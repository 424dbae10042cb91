/**
 * Seeded identifiers in Outscale's formats (`i-1a2b3c4d`, `vol-…`, `fgpu-…`). Multiplying a counter by an odd
 * constant modulo 2^32 is a bijection, so ids never repeat while still looking random and replaying per seed.
 */

export class IdGenerator {
  private counter = 0;

  constructor(private readonly seed: number) {}

  private hex8(): string {
    this.counter += 1;
    const mixed = (Math.imul(this.counter, 0x9e3779b1) + Math.imul(this.seed, 0x85ebca6b)) >>> 0;
    return mixed.toString(16).padStart(8, '0');
  }

  next(prefix: 'i' | 'vol' | 'r' | 'fgpu' | 'ami' | 'subnet' | 'sg' | 'vpc'): string {
    return `${prefix}-${this.hex8()}`;
  }

  requestId(): string {
    const a = this.hex8();
    const b = this.hex8();
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-8${a.slice(1, 4)}-${b}${a.slice(0, 4)}`;
  }

  accessKey(): string {
    return `AK${this.hex8()}${this.hex8()}`.toUpperCase().slice(0, 20);
  }

  secretKey(): string {
    return `${this.hex8()}${this.hex8()}${this.hex8()}${this.hex8()}${this.hex8()}`.toUpperCase().slice(0, 40);
  }
}
