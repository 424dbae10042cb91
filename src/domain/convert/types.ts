/** What `convert` produces: objects of this project's API, each with a comment on every field it changed or dropped. */
import type { KubeObject } from '../admission/types.js';

/** A comment attached to a field of the output (path of keys / indexes), or to the document (empty path). */
export interface ConvertNote {
  path: (string | number)[];
  comment: string;
}

export interface ConvertedDocument {
  object: KubeObject;
  notes: ConvertNote[];
  /** Where it came from (`file.yaml#2`). */
  source: string;
}

export interface ConvertOptions {
  /** HTTPS URL of the API server new nodes join (Scaleway NodeClasses need it; the GPU controller had a placeholder). */
  apiServerEndpoint?: string;
  /** The Secrets of the input (the Scaleway GPU controller's credentials carry the project and region). */
  secrets: readonly KubeObject[];
}
