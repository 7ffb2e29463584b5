/**
 * Built-ins captured when the context starts, before the formula runs: the formula may replace `JSON.stringify`
 * or `JSON.parse` (its own globals), and the answer it gives must still be serialized faithfully - a forged
 * serialization would be its own result, not a leak, but it would fail the invocation for no reason.
 */
export const jsonStringify = JSON.stringify;
export const jsonParse = JSON.parse;
