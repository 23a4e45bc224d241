/** core/runtime/typescript.mjs: lblab's TypeScript compiled for its processes and threads (see there). */
export function runTypeScript(url: URL, root?: string): Promise<Record<string, unknown>>;
export function compiledEntry(entry: string, root?: string): Promise<string | undefined>;
