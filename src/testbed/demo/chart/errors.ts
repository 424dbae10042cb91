/** What the chart configures cannot run: the one-line reason the demo prints before it exits 1. */
export class ChartDemoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChartDemoError';
  }
}
