/**
 * A listing that shrinks sharply is confirmed before garbage collection acts on it. A cloud answer can be
 * short without saying so (a backend that lost part of a page, a filter applied wrongly), and no field can
 * prove it: only a second listing can. "Sharply" means the listing lacks MORE THAN HALF of the instances the
 * last trusted listing had, and at least `minLost` of them (a two-node cluster losing both is not the
 * signature of a broken read; a fleet losing 60 % at once is). Waiting costs one pass; a real mass scale-down
 * shows again on the next listing and is then acted on.
 */
import type { ListedInstance } from './garbage-collection.js';

export interface ShrinkRule {
  /** Share of the trusted listing that must be missing; strictly more than this (default 0.5). */
  lostFraction: number;
  /** Fewest missing instances that count as a sharp shrink (default 3). */
  minLost: number;
}

export const DefaultShrinkRule: ShrinkRule = { lostFraction: 0.5, minLost: 3 };

export interface ListingMemory {
  /** The providerIDs of the last listing garbage collection acted on. */
  trusted?: ReadonlySet<string>;
  /** The previous pass saw a sharp shrink from `trusted` and waited. */
  awaitingConfirmation: boolean;
}

export type ShrinkVerdict =
  { kind: 'act'; memory: ListingMemory } | { kind: 'await-confirmation'; lost: number; trustedCount: number; memory: ListingMemory };

export function isSharpShrink(trustedCount: number, lost: number, rule: ShrinkRule): boolean {
  return lost >= rule.minLost && lost > trustedCount * rule.lostFraction;
}

/**
 * Whether garbage collection may act on `listing`, and what to remember for the next pass. A sharp shrink is
 * acted on only when the pass right after it shows it again (against the same trusted listing); a listing
 * that is back to normal in between simply becomes the new trusted one.
 */
export function judgeListingShrink(
  memory: ListingMemory,
  listing: readonly ListedInstance[],
  rule: ShrinkRule = DefaultShrinkRule,
): ShrinkVerdict {
  const current = new Set(listing.map((i) => i.providerID));
  const trusted = memory.trusted;
  const lost = trusted ? [...trusted].filter((id) => !current.has(id)).length : 0;
  if (!trusted || !isSharpShrink(trusted.size, lost, rule) || memory.awaitingConfirmation) {
    return { kind: 'act', memory: { trusted: current, awaitingConfirmation: false } };
  }
  return { kind: 'await-confirmation', lost, trustedCount: trusted.size, memory: { trusted, awaitingConfirmation: true } };
}

/** The memory without instances garbage collection deleted itself: their absence next pass is no shrink. */
export function forgetDeleted(memory: ListingMemory, deletedIDs: readonly string[]): ListingMemory {
  if (!memory.trusted || deletedIDs.length === 0) return memory;
  const deleted = new Set(deletedIDs);
  return { ...memory, trusted: new Set([...memory.trusted].filter((id) => !deleted.has(id))) };
}
