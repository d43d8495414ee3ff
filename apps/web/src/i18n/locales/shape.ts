/** The same keys as the English namespace, any wording: a missing or extra key fails to compile. */
export type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
