/**
 * The result of reading one REGP field value (seeds/003 §3.2). A value that does not parse is
 * content, not a programming error, so it is a tagged answer with a one-line reason
 * ("expected X, got Y") rather than an exception (STYLE habit 3).
 */
export type ValueResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): ValueResult<T> {
  return { ok: true, value };
}

export function fail<T>(error: string): ValueResult<T> {
  return { ok: false, error };
}
