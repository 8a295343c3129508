// The type an area's German table has: exactly the ids of its English table, each a string.
export type Translation<English> = { readonly [Id in keyof English]: string };
