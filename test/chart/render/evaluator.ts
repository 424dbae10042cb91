/**
 * Executes parsed templates against data, the way Go's text/template does with Helm's functions: dot and `$`,
 * variables scoped to their block, pipelines passing their value as the last argument, short-circuit and/or.
 */
import { type Command, type ControlNode, type Operand, type Pipeline, type TemplateNode } from './ast.js';
import { FunctionError, TemplateError, TemplateFailure } from './errors.js';
import { templateFunctions } from './functions.js';
import { formatValue, isMap, isTruthy, type Value, walkChain } from './values.js';

/** Variable frames, innermost last; a block's variables end with the block. */
class Scope {
  private readonly frames: Array<Map<string, Value>>;

  constructor(root: Value) {
    this.frames = [new Map([['$', root]])];
  }

  push(): void {
    this.frames.push(new Map());
  }

  pop(): void {
    this.frames.pop();
  }

  declare(name: string, value: Value): void {
    (this.frames[this.frames.length - 1] as Map<string, Value>).set(name, value);
  }

  lookup(name: string): { found: boolean; value: Value; frame?: Map<string, Value> } {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i] as Map<string, Value>;
      if (frame.has(name)) return { found: true, value: frame.get(name), frame };
    }
    return { found: false, value: undefined };
  }
}

const maxIncludeDepth = 100;

export class Evaluator {
  private depth = 0;

  constructor(private readonly defines: ReadonlyMap<string, TemplateNode[]>) {}

  /** Renders nodes with `data` as both dot and `$`. */
  async render(nodes: TemplateNode[], data: Value): Promise<string> {
    return this.nodes(nodes, data, new Scope(data));
  }

  /** `include`/`template`: a named template's output. */
  async include(name: string, data: Value, at: Pipeline | { template: string; line: number }): Promise<string> {
    const body = this.defines.get(name);
    if (!body) throw new TemplateError(at.template, at.line, `no template "${name}" associated with template`);
    if (++this.depth > maxIncludeDepth) throw new TemplateError(at.template, at.line, `exceeded max include depth (${maxIncludeDepth}) in "${name}"`);
    try {
      return await this.render(body, data);
    } finally {
      this.depth--;
    }
  }

  private async nodes(nodes: TemplateNode[], dot: Value, scope: Scope): Promise<string> {
    let out = '';
    for (const node of nodes) out += await this.node(node, dot, scope);
    return out;
  }

  private async node(node: TemplateNode, dot: Value, scope: Scope): Promise<string> {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'action': {
        const value = await this.pipeline(node.pipeline, dot, scope);
        return node.pipeline.declaration ? '' : formatValue(value);
      }
      case 'template': {
        const data = node.pipeline ? await this.pipeline(node.pipeline, dot, scope) : undefined;
        return this.include(node.name, data, node);
      }
      default:
        return this.control(node, dot, scope);
    }
  }

  private async block(body: TemplateNode[], dot: Value, scope: Scope, bind?: () => void): Promise<string> {
    scope.push();
    try {
      bind?.();
      return await this.nodes(body, dot, scope);
    } finally {
      scope.pop();
    }
  }

  private async control(node: ControlNode, dot: Value, scope: Scope): Promise<string> {
    if (node.type === 'range') return this.range(node, dot, scope);
    for (const branch of node.branches) {
      scope.push();
      try {
        const value = await this.pipeline(branch.pipeline, dot, scope);
        if (isTruthy(value)) return await this.nodes(branch.body, node.type === 'with' ? value : dot, scope);
      } finally {
        scope.pop();
      }
    }
    return this.block(node.elseBody, dot, scope);
  }

  private async range(node: ControlNode, dot: Value, scope: Scope): Promise<string> {
    const branch = node.branches[0] as ControlNode['branches'][number];
    const { declaration } = branch.pipeline;
    const collection = await this.pipeline({ ...branch.pipeline, declaration: undefined }, dot, scope);
    const entries: Array<[Value, Value]> = Array.isArray(collection)
      ? collection.map((v, i) => [i, v])
      : isMap(collection)
        ? Object.keys(collection).sort().map((k) => [k, collection[k]])
        : collection === undefined || collection === null
          ? []
          : this.fail(branch.pipeline, `range can't iterate over ${formatValue(collection)}`);
    if (entries.length === 0) return this.block(node.elseBody, dot, scope);
    let out = '';
    for (const [key, value] of entries) {
      out += await this.block(branch.body, value, scope, () => {
        const names = declaration?.names ?? [];
        if (names.length === 1) scope.declare(names[0] as string, value);
        if (names.length === 2) {
          scope.declare(names[0] as string, key);
          scope.declare(names[1] as string, value);
        }
      });
    }
    return out;
  }

  private fail(at: Pipeline, message: string): never {
    throw new TemplateError(at.template, at.line, message);
  }

  async pipeline(pipeline: Pipeline, dot: Value, scope: Scope): Promise<Value> {
    let value: Value;
    let piped = false;
    for (const command of pipeline.commands) {
      value = await this.command(command, dot, scope, pipeline, piped ? [value] : []);
      piped = true;
    }
    const { declaration } = pipeline;
    if (declaration) {
      const name = declaration.names[0] as string;
      if (declaration.assign) {
        const existing = scope.lookup(name);
        if (!existing.frame) this.fail(pipeline, `undefined variable: ${name}`);
        existing.frame.set(name, value);
      } else scope.declare(name, value);
    }
    return value;
  }

  private async command(command: Command, dot: Value, scope: Scope, at: Pipeline, piped: Value[]): Promise<Value> {
    const [head, ...rest] = command.operands as [Operand, ...Operand[]];
    if (head.kind !== 'function') {
      if (rest.length > 0 || piped.length > 0) this.fail(at, `can't give argument to non-function ${describe(head)}`);
      return this.operand(head, dot, scope, at);
    }
    try {
      if (head.name === 'and' || head.name === 'or') return await this.logical(head.name, rest, piped, dot, scope, at);
      const args = [...(await Promise.all(rest.map((o) => this.operand(o, dot, scope, at)))), ...piped];
      if (head.name === 'include') return await this.include(formatValue(args[0]), args[1], at);
      const fn = templateFunctions[head.name];
      if (!fn) return this.fail(at, `function "${head.name}" not defined`);
      return await fn(...args);
    } catch (error) {
      if (!(error instanceof FunctionError)) throw error;
      if (error.userFailure) throw new TemplateFailure(at.template, at.line, error.message);
      return this.fail(at, `error calling ${head.name}: ${error.message}`);
    }
  }

  /** Go 1.18+: `and` returns the first false argument, `or` the first true one, evaluating no further. */
  private async logical(name: 'and' | 'or', operands: Operand[], piped: Value[], dot: Value, scope: Scope, at: Pipeline): Promise<Value> {
    let last: Value;
    const total = operands.length + piped.length;
    if (total === 0) this.fail(at, `wrong number of args for ${name}: want at least 1 got 0`);
    for (let i = 0; i < total; i++) {
      last = i < operands.length ? await this.operand(operands[i] as Operand, dot, scope, at) : piped[0];
      if (isTruthy(last) === (name === 'or')) return last;
    }
    return last;
  }

  private async operand(operand: Operand, dot: Value, scope: Scope, at: Pipeline): Promise<Value> {
    try {
      switch (operand.kind) {
        case 'dot':
          return walkChain(dot, operand.chain);
        case 'variable': {
          const found = scope.lookup(operand.name);
          if (!found.found) this.fail(at, `undefined variable "${operand.name}"`);
          return walkChain(found.value, operand.chain);
        }
        case 'pipeline':
          return walkChain(await this.pipeline(operand.pipeline, dot, scope), operand.chain);
        case 'string':
        case 'number':
        case 'bool':
          return operand.value;
        case 'nil':
          return null;
        case 'function':
          return await this.command({ operands: [operand] }, dot, scope, at, []);
      }
    } catch (error) {
      if (error instanceof FunctionError && !error.userFailure) this.fail(at, error.message);
      throw error;
    }
  }
}

function describe(operand: Operand): string {
  switch (operand.kind) {
    case 'dot':
      return operand.chain.length ? `.${operand.chain.join('.')}` : '.';
    case 'variable':
      return operand.name + operand.chain.map((c) => `.${c}`).join('');
    case 'string':
      return JSON.stringify(operand.value);
    default:
      return operand.kind;
  }
}
