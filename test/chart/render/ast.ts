/** The syntax tree of the Go text/template subset Helm charts use. */

export type Operand =
  | { kind: 'dot'; chain: string[] }
  | { kind: 'variable'; name: string; chain: string[] }
  | { kind: 'function'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'nil' }
  | { kind: 'pipeline'; pipeline: Pipeline; chain: string[] };

/** A command is one stage of a pipeline: a function call with arguments, or a single value. */
export interface Command {
  operands: Operand[];
}

export interface Declaration {
  names: string[];
  /** `=` assigns an existing variable; `:=` declares one in the current scope. */
  assign: boolean;
}

export interface Pipeline {
  declaration?: Declaration;
  commands: Command[];
  /** Where it was written, for error messages. */
  template: string;
  line: number;
}

export interface TextNode {
  type: 'text';
  text: string;
}

export interface ActionNode {
  type: 'action';
  pipeline: Pipeline;
}

export interface Branch {
  pipeline: Pipeline;
  body: TemplateNode[];
}

/** if / else if / else; with and range use `branches[0]` only. */
export interface ControlNode {
  type: 'if' | 'with' | 'range';
  branches: Branch[];
  elseBody: TemplateNode[];
}

export interface TemplateCallNode {
  type: 'template';
  name: string;
  pipeline?: Pipeline;
  template: string;
  line: number;
}

export type TemplateNode = TextNode | ActionNode | ControlNode | TemplateCallNode;

/** A parsed file: its top-level body and the named templates it defines. */
export interface ParsedTemplate {
  name: string;
  body: TemplateNode[];
  defines: Map<string, TemplateNode[]>;
}
