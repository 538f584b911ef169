// A streaming multipart/form-data reader: notes each part's name, filename, type and size, and keeps no content,
// so memory stays bounded whatever the upload's size.
import type { IncomingMessage } from 'node:http';
import { ApiError, plainError } from './responses.js';

export interface PartInfo {
  name: string | null;
  /** Set on file parts only. */
  filename: string | null;
  contentType: string | null;
  size: number;
}

export interface MultipartSummary {
  parts: PartInfo[];
  /** False when the body was not multipart, or ended before its closing boundary. */
  complete: boolean;
}

const MAX_HEADER_BYTES = 16 * 1024;
/** More parts than this makes the body malformed, so a flood of tiny parts cannot grow the list. */
const MAX_PARTS = 100;
const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** Reads the whole body; over `maxTotalBytes` it stops and answers 413 on a connection that then closes. */
export function readMultipart(req: IncomingMessage, maxTotalBytes: number): Promise<MultipartSummary> {
  const boundary = boundaryOf(req.headers['content-type']);
  const scanner = boundary === undefined ? undefined : new MultipartScanner(boundary);
  return new Promise((resolve, reject) => {
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxTotalBytes) {
        req.off('data', onData);
        req.pause();
        const tooLarge = plainError(413, 'The request body is too large.');
        reject(new ApiError({ ...tooLarge, headers: { Connection: 'close' } }));
        return;
      }
      scanner?.write(chunk);
    };
    const settle = () => resolve(scanner?.finish() ?? { parts: [], complete: false });
    req.on('data', onData);
    req.on('end', settle);
    // A client that goes away mid-upload: whatever came is incomplete (nobody reads the answer anyway).
    req.on('close', settle);
    req.on('error', reject);
  });
}

function boundaryOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

type ScanState = 'preamble' | 'after-boundary' | 'headers' | 'body' | 'done' | 'broken';

/** The RFC 7578 grammar as a state machine over chunks; only a delimiter's length of bytes is ever held back. */
class MultipartScanner {
  private readonly delimiter: Buffer;
  private state: ScanState = 'preamble';
  // The leading CRLF lets the first boundary match like every later one, with or without a preamble.
  private pending: Buffer = CRLF;
  private readonly parts: PartInfo[] = [];
  private current: PartInfo | undefined;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  write(chunk: Buffer): void {
    if (this.state === 'done' || this.state === 'broken') return;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.step()) {
      // Each step consumes what it can; false means it needs more bytes.
    }
  }

  finish(): MultipartSummary {
    return { parts: this.parts, complete: this.state === 'done' };
  }

  private step(): boolean {
    switch (this.state) {
      case 'preamble':
      case 'body':
        return this.scanToDelimiter();
      case 'after-boundary':
        return this.readBoundaryTail();
      case 'headers':
        return this.readHeaders();
      default:
        return false;
    }
  }

  private scanToDelimiter(): boolean {
    const at = this.pending.indexOf(this.delimiter);
    const usable = at === -1 ? this.pending.length - (this.delimiter.length - 1) : at;
    if (this.current !== undefined && usable > 0) this.current.size += usable;
    if (at === -1) {
      if (usable > 0) this.pending = this.pending.subarray(usable);
      return false;
    }
    this.current = undefined;
    this.pending = this.pending.subarray(at + this.delimiter.length);
    this.state = 'after-boundary';
    return true;
  }

  /** After a boundary: `--` closes the body, else optional padding and CRLF open the next part. */
  private readBoundaryTail(): boolean {
    if (this.pending.length < 2) return false;
    if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
      this.state = 'done';
      return false;
    }
    const lineEnd = this.pending.indexOf(CRLF);
    if (lineEnd === -1) return this.holdAtMost(1024);
    if (this.pending.subarray(0, lineEnd).toString('latin1').trim() !== '') return this.fail();
    this.pending = this.pending.subarray(lineEnd + 2);
    this.state = 'headers';
    return true;
  }

  private readHeaders(): boolean {
    // A part without headers starts straight with the blank line.
    const end = this.pending.subarray(0, 2).equals(CRLF) ? 0 : this.pending.indexOf(HEADERS_END);
    if (end === -1) return this.holdAtMost(MAX_HEADER_BYTES);
    const text = this.pending.subarray(0, end).toString('utf8');
    this.pending = this.pending.subarray(end === 0 ? 2 : end + HEADERS_END.length);
    if (this.parts.length >= MAX_PARTS) return this.fail();
    this.current = partFromHeaders(text);
    this.parts.push(this.current);
    this.state = 'body';
    return true;
  }

  private holdAtMost(bytes: number): boolean {
    return this.pending.length > bytes ? this.fail() : false;
  }

  private fail(): boolean {
    this.state = 'broken';
    this.pending = Buffer.alloc(0);
    return false;
  }
}

function partFromHeaders(text: string): PartInfo {
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  const param = (key: string) => new RegExp(`;\\s*${key}="([^"]*)"`, 'i').exec(disposition)?.[1] ?? null;
  return {
    name: param('name'),
    filename: param('filename'),
    contentType: headers.get('content-type') ?? null,
    size: 0,
  };
}
