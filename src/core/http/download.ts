// What a download hands its body to, and how a body cut off midway is told apart from the sink's own failures.
import { Readable } from 'node:stream';

/** Where a download's 2xx body goes: a file, stdout. */
export interface DownloadSink {
  /** What is downloaded, as messages name it: `AI report 1`. */
  readonly what: string;
  /** Takes one answer's body to its end (its headers beside it); the body's own failure rejects with its error. */
  take(body: Readable, headers: Record<string, string>): Promise<void>;
  /** After a cut-off: whether nothing of that answer was kept, so the body may be fetched again from its start. */
  canStartOver(): boolean;
  /** What is left of a download given up: `nothing was saved`. */
  leftOver(): string;
}

/** The body failed after its headers (a reset, a silence past the timeout): the download was cut off. */
export class CutOff extends Error {
  constructor(readonly reason: unknown) {
    super('the answer was cut off');
  }
}

/** The body, its own failures thrown as CutOff: the sink's (a gate, a full disk) stay as they are. */
export function markingCutOffs(body: AsyncIterable<Buffer>): Readable {
  return Readable.from(
    (async function* () {
      try {
        yield* body;
      } catch (error) {
        throw new CutOff(error);
      }
    })(),
  );
}
