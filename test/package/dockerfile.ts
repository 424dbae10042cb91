/** The Dockerfile as data: its stages, each with its base image and instructions (continuation lines joined). */
export interface Instruction {
  keyword: string;
  /** The instruction's text after the keyword. */
  args: string;
}

export interface Stage {
  /** The FROM image (`name:tag@sha256:…`, or an earlier stage's name). */
  image: string;
  name?: string;
  instructions: Instruction[];
}

export interface Copy {
  from?: string;
  sources: string[];
  dest: string;
}

function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(pending + line);
    pending = '';
  }
  return lines;
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of logicalLines(text)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!match) throw new Error(`FROM ${args}: not understood`);
      stages.push({ image: match[1] as string, ...(match[2] ? { name: match[2] } : {}), instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${keyword} before any FROM`);
      stage.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** A COPY's sources and destination (shell form only, which is what the Dockerfile uses). */
export function parseCopy(args: string): Copy {
  const words = args.split(/\s+/);
  const flags = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
  if (paths.length < 2) throw new Error(`COPY ${args}: expected sources and a destination`);
  return { ...(from ? { from } : {}), sources: paths.slice(0, -1), dest: paths.at(-1) as string };
}

/** The stage's working directory at its end (absolute WORKDIRs only, as the Dockerfile uses). */
export function workdir(stage: Stage): string {
  return stage.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args ?? '/';
}
