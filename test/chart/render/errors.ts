/** Errors of the test-only Helm template renderer, in Go's `template: NAME:LINE: message` shape. */
export class TemplateError extends Error {
  constructor(
    readonly template: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`template: ${template}:${line}: ${detail}`);
    this.name = 'TemplateError';
  }
}

/** `fail` and `required` in a template: the chart author's message, reported as Helm reports it. */
export class TemplateFailure extends Error {
  constructor(
    readonly template: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`execution error at (${template}:${line}): ${reason}`);
    this.name = 'TemplateFailure';
  }
}

/** Raised by a function; the evaluator turns it into a TemplateError or TemplateFailure with the position. */
export class FunctionError extends Error {
  constructor(
    message: string,
    readonly userFailure = false,
  ) {
    super(message);
    this.name = 'FunctionError';
  }
}
