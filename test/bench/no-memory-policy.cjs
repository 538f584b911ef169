// Preloaded with `node --require` (as report-rss.cjs is, so both runs load alike) to measure what the memory policy
// costs: node:v8 is not to be had through process.getBuiltinModule, so src/core/memory.ts sets nothing up and never
// collects (its "not available" path).
const builtin = process.getBuiltinModule.bind(process);
process.getBuiltinModule = (name) => {
  if (name === 'node:v8' || name === 'v8') throw new Error('node:v8 withheld by the benchmark');
  return builtin(name);
};
