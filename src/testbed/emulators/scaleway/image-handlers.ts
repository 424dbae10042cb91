/**
 * Images as the real APIs resolve them: the Marketplace's local images of a label in a zone
 * (`GET /marketplace/v2/local-images?image_label=&zone=`, one per volume type, ids differing by zone) and
 * the Instance API's `GET /images/{id}` for a local image's id. Labels are Scaleway's public ones.
 */
import { notFound } from './api-error.js';
import type { EmulatorContext, RequestContext } from './context.js';
import type { Reply } from './http-io.js';
import { imageIdForLabel } from './ids.js';

export const MarketplaceLabels: readonly string[] = [
  'ubuntu_focal',
  'ubuntu_jammy',
  'ubuntu_noble',
  'ubuntu_jammy_gpu_os_12',
  'ubuntu_noble_gpu_os_12',
  'debian_bullseye',
  'debian_bookworm',
  'rockylinux_9',
  'almalinux_9',
  'centos_stream_9',
  'fedora_40',
];

const VolumeTypes = ['instance_sbs', 'instance_local'] as const;

function localImages(
  label: string,
  zone: string,
): { id: string; label: string; zone: string; type: string; arch: string; compatible_commercial_types: string[] }[] {
  if (!MarketplaceLabels.includes(label)) return [];
  return VolumeTypes.map((type) => ({
    id: imageIdForLabel(`${label}/${zone}/${type}`),
    label,
    zone,
    type,
    arch: 'x86_64',
    compatible_commercial_types: [],
  }));
}

export function listLocalImages(_emu: EmulatorContext, req: RequestContext): Reply {
  const label = req.query.get('image_label') ?? '';
  const type = req.query.get('type');
  const images = localImages(label, req.zone).filter((i) => !type || type === 'unknown_type' || i.type === type);
  return { status: 200, json: { local_images: images, total_count: images.length } };
}

export function getImage(_emu: EmulatorContext, req: RequestContext): Reply {
  const id = req.params.imageId ?? '';
  for (const label of MarketplaceLabels) {
    const image = localImages(label, req.zone).find((i) => i.id === id);
    if (image)
      return {
        status: 200,
        json: {
          image: {
            id,
            name: label,
            arch: 'x86_64',
            public: true,
            state: 'available',
            zone: req.zone,
            root_volume: null,
            extra_volumes: {},
            tags: [],
          },
        },
      };
  }
  throw notFound('instance_image', id);
}
