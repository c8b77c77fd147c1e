// Placeholder; filled in when explain is written.
export const OPENAPI: Record<string, unknown> = {};
