// Inside the single executable (`npm run package`, src/executable/) the bundle is handed `__executable`: the packages
// it loads and the files the npm package ships beside the code (completions, the man page) come from the
// executable's assets there. Everywhere else it is undefined and they come from node_modules and the package.

/** What the single executable provides in place of node_modules and the package's files. */
export interface Executable {
  /** A package (or a built-in module), its exports as CommonJS's require gives them. */
  loadPackage(id: string): unknown;
  /** A file the package ships (`completions/clinic.bash`, `man/clinic.1`), as text. */
  shippedFile(path: string): string;
}

declare const __executable: Executable | undefined;

export const executable: Executable | undefined =
  typeof __executable === 'object' && __executable !== null ? __executable : undefined;
