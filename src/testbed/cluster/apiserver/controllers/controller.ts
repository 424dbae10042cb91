/** The shape every in-simulator controller has: it watches store events and settles on a work queue. */
import { type StoreEvent } from '../object-store.js';

export interface Controller {
  readonly name: string;
  /** Called synchronously for every store event. */
  observe(event: StoreEvent): void;
  idle(): Promise<void>;
  readonly busy: boolean;
  readonly errors: readonly Error[];
  stop(): void;
}
