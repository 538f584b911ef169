// Preloaded with `node --import`: stands in for Node's module.enableCompileCache (Node 22.1 and later) on any Node,
// so a test can see bin/clinic.js take that path; appends each directory it is given to $STUB_COMPILE_CACHE_FILE.
// bin tells a Node with that cache by its version (looking for the function would load node:module on every run):
// the version says 22.1.0 here.
import { appendFileSync } from 'node:fs';
import nodeModule from 'node:module';

nodeModule.enableCompileCache = (directory) => {
  appendFileSync(process.env.STUB_COMPILE_CACHE_FILE, `${directory}\n`);
  return { status: 0, directory };
};
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 1))
  Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '22.1.0' } });
