// Preloaded with `node --import`: writes to $RECORD_STREAMS_FILE at exit which of process.stdout and process.stderr
// the run made (each is made by its getter on first use), one name a line.
import { writeFileSync } from 'node:fs';

const made = new Set();
for (const name of ['stdout', 'stderr']) {
  const { get, enumerable } = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable,
    get() {
      made.add(name);
      return get.call(this);
    },
  });
}
process.on('exit', () =>
  writeFileSync(process.env.RECORD_STREAMS_FILE, [...made].map((n) => `${n}\n`).join('')),
);
