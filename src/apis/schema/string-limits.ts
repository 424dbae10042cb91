/**
 * Length caps of the strings the schemas check with a pattern. Each cap bounds the work a pattern (and any
 * parser behind it) can be made to do by one field, and is set well above the longest legitimate value.
 */

/** A resource.Quantity: at most 2^63-1 (19 digits) with 9 fraction digits, a sign and an exponent fit in 64. */
export const MaxQuantityLength = 64;

/** A Go duration (`720h`, `1h30m0s`) or `Never`. */
export const MaxDurationLength = 64;

/** A cron schedule: five fields with lists and ranges (`0,15,30,45 8-18 * * mon-fri`), or a macro. */
export const MaxScheduleLength = 256;

/** A budget's `nodes`: a count or a percentage. */
export const MaxBudgetNodesLength = 16;

/** A qualified name (label or taint key): a 253-byte DNS prefix, `/`, a 62-byte name — upstream's 316. */
export const MaxQualifiedNameLength = 316;

/** A label value, and a taint value (the Kubernetes limit for both). */
export const MaxLabelValueLength = 63;

/** An API group is a DNS subdomain. */
export const MaxDnsSubdomainLength = 253;
