/**
 * Ways to write an ASCII node name into a Buffer at an offset, as the extender's encoder does once per name
 * (5,000 names per call): the documented Buffer#write with 'latin1' (with and without the length),
 * Buffer#write's UTF-8 default,
 * TextEncoder#encodeInto, a charCodeAt loop, Buffer.from + copy, and Node's undocumented
 * Buffer.prototype.latin1Write for comparison. Prints ns per name, best of 5 rounds, and checks every way
 * writes the same bytes.
 * Run: npx tsx bench/name-write.bench.ts   (NAMES=5000 ROUNDS=5 REPEAT=200)
 */
const count = Number(process.env.NAMES ?? 5_000);
const rounds = Number(process.env.ROUNDS ?? 5);
const repeat = Number(process.env.REPEAT ?? 200);
const flavors = ['b3-8', 'b3-16', 'b3-32'];
const names = Array.from(
  { length: count },
  (_, i) => `karpenter-${flavors[i % 3]}-eu-west-par-${'abc'[i % 3]}-node-${((i * 2_654_435_761) >>> 0).toString(16).slice(0, 6)}`,
);
const out = Buffer.allocUnsafe(count * 64);
const encoder = new TextEncoder();
type Write = (text: string, at: number) => number;
const internal = (Buffer.prototype as Buffer & { latin1Write?: (this: Buffer, text: string, offset: number) => number }).latin1Write;

const ways: Record<string, Write> = {
  "buf.write(text, at, 'latin1')": (text, at) => out.write(text, at, 'latin1'),
  "buf.write(text, at, text.length, 'latin1')": (text, at) => out.write(text, at, text.length, 'latin1'),
  'buf.write(text, at) (utf8)': (text, at) => out.write(text, at),
  'encoder.encodeInto(text, buf.subarray(at))': (text, at) => encoder.encodeInto(text, out.subarray(at)).written,
  'charCodeAt loop': (text, at) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
    return text.length;
  },
  "Buffer.from(text, 'latin1').copy(buf, at)": (text, at) => Buffer.from(text, 'latin1').copy(out, at),
  ...(internal ? { 'Buffer.prototype.latin1Write (undocumented)': (text: string, at: number) => internal.call(out, text, at) } : {}),
};

function writeAll(write: Write): number {
  let at = 0;
  for (let i = 0; i < names.length; i++) at += write(names[i] as string, at);
  return at;
}

const expected = Buffer.from(names.join(''), 'latin1');
console.log(`${count} names of ${names[0]?.length} bytes, best of ${rounds} rounds of ${repeat} passes (Node ${process.version})`);
for (const [label, write] of Object.entries(ways)) {
  const written = writeAll(write);
  if (!out.subarray(0, written).equals(expected)) throw new Error(`${label} wrote other bytes`);
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < repeat; k++) writeAll(write);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / (repeat * count));
  }
  console.log(
    `${label.padEnd(48)} ${best.toFixed(1).padStart(6)} ns/name  (${((best * count) / 1e6).toFixed(3)} ms per 5,000-name answer)`,
  );
}
