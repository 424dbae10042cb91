/**
 * Parses the Go text/template subset Helm charts use: actions with pipelines and variables, if/else if/else,
 * with, range, define, template. Function names are checked here, so an unknown one fails at parse time with
 * the template and line, as Go's parser does.
 */
import { type Branch, type Command, type ControlNode, type Operand, type ParsedTemplate, type Pipeline, type TemplateNode } from './ast.js';
import { TemplateError } from './errors.js';
import { type Piece, splitPieces, type Token, tokenize } from './lexer.js';

const keywords = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);

class PipelineParser {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly template: string,
    private readonly line: number,
    private readonly functions: ReadonlySet<string>,
  ) {}

  private fail(message: string): never {
    throw new TemplateError(this.template, this.line, message);
  }

  parse(): Pipeline {
    const pipeline = this.pipeline(true);
    if (this.index < this.tokens.length) this.fail(`unexpected ${this.describe(this.tokens[this.index] as Token)} in action`);
    return pipeline;
  }

  private describe(token: Token): string {
    return token.kind === 'identifier' ? `"${token.name}"` : token.kind;
  }

  private declaration(): Pipeline['declaration'] {
    const names: string[] = [];
    let i = this.index;
    for (;;) {
      const token = this.tokens[i];
      if (token?.kind !== 'variable' || token.chain.length > 0) return undefined;
      names.push(token.name);
      const next = this.tokens[i + 1];
      if (next?.kind === 'comma') i += 2;
      else if (next?.kind === 'declare' || next?.kind === 'assign') {
        this.index = i + 2;
        return { names, assign: next.kind === 'assign' };
      } else return undefined;
    }
  }

  private pipeline(allowDeclaration: boolean): Pipeline {
    const declaration = allowDeclaration ? this.declaration() : undefined;
    const commands: Command[] = [this.command()];
    while (this.tokens[this.index]?.kind === 'pipe') {
      this.index++;
      commands.push(this.command());
    }
    return { declaration, commands, template: this.template, line: this.line };
  }

  private command(): Command {
    const operands: Operand[] = [];
    for (let token = this.tokens[this.index]; token && token.kind !== 'pipe' && token.kind !== 'close'; token = this.tokens[this.index]) {
      operands.push(this.operand(token));
    }
    if (operands.length === 0) this.fail('missing value for command');
    return { operands };
  }

  private operand(token: Token): Operand {
    this.index++;
    switch (token.kind) {
      case 'string':
        return { kind: 'string', value: token.value };
      case 'number':
        return { kind: 'number', value: token.value };
      case 'field':
        return { kind: 'dot', chain: token.chain };
      case 'variable':
        return { kind: 'variable', name: token.name, chain: token.chain };
      case 'open': {
        const pipeline = this.pipeline(false);
        if (this.tokens[this.index]?.kind !== 'close') this.fail('unclosed left paren');
        this.index++;
        return { kind: 'pipeline', pipeline, chain: [] };
      }
      case 'identifier':
        if (token.name === 'true' || token.name === 'false') return { kind: 'bool', value: token.name === 'true' };
        if (token.name === 'nil') return { kind: 'nil' };
        if (!this.functions.has(token.name)) this.fail(`function "${token.name}" not defined`);
        return { kind: 'function', name: token.name };
      default:
        return this.fail(`unexpected ${token.kind} in operand`);
    }
  }
}

type Terminator = { keyword: 'end' } | { keyword: 'else'; rest: string; line: number } | { keyword: 'eof' };

class TemplateParser {
  private index = 0;
  readonly defines = new Map<string, TemplateNode[]>();

  constructor(
    private readonly pieces: Piece[],
    private readonly template: string,
    private readonly functions: ReadonlySet<string>,
  ) {}

  private pipeline(source: string, line: number): Pipeline {
    return new PipelineParser(tokenize(source, this.template, line), this.template, line, this.functions).parse();
  }

  /** Nodes up to `{{ end }}`, `{{ else … }}` or the end of the file. */
  list(): { nodes: TemplateNode[]; terminator: Terminator } {
    const nodes: TemplateNode[] = [];
    while (this.index < this.pieces.length) {
      const piece = this.pieces[this.index++] as Piece;
      if (piece.kind === 'text') {
        nodes.push({ type: 'text', text: piece.text });
        continue;
      }
      const match = /^([a-z]+)\b\s*([\s\S]*)$/.exec(piece.source);
      const keyword = match && keywords.has(match[1] as string) ? (match[1] as string) : undefined;
      const rest = match?.[2] ?? '';
      if (keyword === 'end') return { nodes, terminator: { keyword: 'end' } };
      if (keyword === 'else') return { nodes, terminator: { keyword: 'else', rest, line: piece.line } };
      if (keyword === undefined) nodes.push({ type: 'action', pipeline: this.pipeline(piece.source, piece.line) });
      else {
        const node = this.keyword(keyword, rest, piece.line);
        if (node) nodes.push(node);
      }
    }
    return { nodes, terminator: { keyword: 'eof' } };
  }

  private expectEnd(terminator: Terminator, what: string, line: number): void {
    if (terminator.keyword !== 'end') throw new TemplateError(this.template, line, `unexpected EOF: {{ ${what} }} has no {{ end }}`);
  }

  private keyword(keyword: string, rest: string, line: number): TemplateNode | undefined {
    switch (keyword) {
      case 'if':
      case 'with':
      case 'range':
        return this.control(keyword, rest, line);
      case 'define': {
        const name = this.quotedName(rest, line, 'define');
        const { nodes, terminator } = this.list();
        this.expectEnd(terminator, `define "${name}"`, line);
        this.defines.set(name, nodes);
        return undefined;
      }
      case 'template': {
        const match = /^("(?:[^"\\]|\\.)*"|`[^`]*`)\s*([\s\S]*)$/.exec(rest);
        if (!match) throw new TemplateError(this.template, line, 'template: expected a quoted template name');
        const name = this.quotedName(match[1] as string, line, 'template');
        const pipeline = match[2] ? this.pipeline(match[2], line) : undefined;
        return { type: 'template', name, pipeline, template: this.template, line };
      }
      default:
        throw new TemplateError(this.template, line, `{{ ${keyword} }} is not supported by this renderer`);
    }
  }

  private quotedName(text: string, line: number, what: string): string {
    const trimmed = text.trim();
    if (/^"(?:[^"\\]|\\.)*"$/.test(trimmed)) return JSON.parse(trimmed) as string;
    if (/^`[^`]*`$/.test(trimmed)) return trimmed.slice(1, -1);
    throw new TemplateError(this.template, line, `${what}: expected a quoted template name, got ${JSON.stringify(trimmed)}`);
  }

  private control(type: ControlNode['type'], source: string, line: number): ControlNode {
    const branches: Branch[] = [];
    let condition = source;
    let conditionLine = line;
    for (;;) {
      const pipeline = this.pipeline(condition, conditionLine);
      const { nodes, terminator } = this.list();
      branches.push({ pipeline, body: nodes });
      if (terminator.keyword === 'end') return { type, branches, elseBody: [] };
      if (terminator.keyword === 'eof') this.expectEnd(terminator, type, line);
      const { rest, line: elseLine } = terminator as { rest: string; line: number };
      const chained = /^(if|with)\b\s*([\s\S]*)$/.exec(rest);
      if (chained && chained[1] === type && type !== 'range') {
        condition = chained[2] as string;
        conditionLine = elseLine;
        continue;
      }
      if (rest.trim() !== '') throw new TemplateError(this.template, elseLine, `unexpected "${rest.trim()}" after else`);
      const elseList = this.list();
      this.expectEnd(elseList.terminator, type, line);
      return { type, branches, elseBody: elseList.nodes };
    }
  }
}

export function parseTemplate(name: string, source: string, functions: ReadonlySet<string>): ParsedTemplate {
  const parser = new TemplateParser(splitPieces(source, name), name, functions);
  const { nodes, terminator } = parser.list();
  if (terminator.keyword === 'end') throw new TemplateError(name, 0, 'unexpected {{ end }}');
  if (terminator.keyword === 'else') throw new TemplateError(name, terminator.line, 'unexpected {{ else }}');
  return { name, body: nodes, defines: parser.defines };
}
