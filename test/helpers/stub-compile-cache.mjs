// Preloaded with `node --import`: stands in for Node's module.enableCompileCache (Node 22.1 and later) on any Node,
// so a test can see bin/clinic.js take that path; appends each directory it is given to $STUB_COMPILE_CACHE_FILE.
import { appendFileSync } from 'node:fs';
import nodeModule from 'node:module';

nodeModule.enableCompileCache = (directory) => {
  appendFileSync(process.env.STUB_COMPILE_CACHE_FILE, `${directory}\n`);
  return { status: 0, directory };
};
