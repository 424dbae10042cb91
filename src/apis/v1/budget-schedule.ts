/**
 * A one-pass check of BudgetSchedulePattern. The regular expression (upstream's, kept for the CRD, where
 * the API server's RE2 runs it in linear time) backtracks polynomially in a backtracking engine such as
 * V8's: 128 spaces and a newline took 30 s. This accepts exactly the strings it accepts, in JavaScript's
 * semantics (`.`: anything but a line terminator; `\s`: JavaScript's white space and line terminators).
 */

const Macros = ['annually', 'yearly', 'monthly', 'weekly', 'daily', 'midnight', 'hourly'];
const Whitespace = /^\s$/u;

function isLineTerminator(unit: number): boolean {
  return unit === 0x0a || unit === 0x0d || unit === 0x2028 || unit === 0x2029;
}

/*
 * The second alternative is `(.+)\s(.+)\s(.+)\s(.+)\s(.+)$`, unanchored at the start. Its states, as bits:
 * 0 in the first field, 1 after the first separator, 2 in the second field, … 8 in the fifth. Even states
 * (inside a field) take another `.`; odd ones (after a separator) need one to enter the next field; a field
 * state 0–6 takes a `\s` into the next odd state. Every position may start a match, hence the added bit 0.
 */
const FieldStates = 0b101010101;
const SeparatorStates = 0b010101010;
const FieldsBeforeLast = 0b001010101;
const InLastField = 0b100000000;

function endsWithFiveFields(value: string): boolean {
  let states = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    let next = 0;
    if (!isLineTerminator(unit)) next |= 1 | (states & FieldStates) | ((states & SeparatorStates) << 1);
    if (Whitespace.test(value[i] as string)) next |= (states & FieldsBeforeLast) << 1;
    states = next;
  }
  return (states & InLastField) !== 0;
}

/** Whether `value` matches BudgetSchedulePattern, in time linear in its length. */
export function isBudgetSchedule(value: string): boolean {
  if (value.startsWith('@') && Macros.some((macro) => value.startsWith(macro, 1))) return true;
  return endsWithFiveFields(value);
}
