// Request bodies from --data (JSON text, @file or - for stdin) and --set key=value / key:=json, checked locally.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { nestsDeeperThan, TOO_DEEP } from '../core/json-depth.js';
import type { IO } from './io.js';
import { systemReason } from '../core/system-error.js';

export interface BodyFlags {
  data?: string;
  set: string[];
}

type JsonObject = Record<string, unknown>;

/** The raw --data text, read from a file or stdin when asked. */
async function dataText(data: string, io: IO): Promise<{ text: string; origin: string }> {
  if (data === '-') return { text: await io.readStdin(), origin: 'stdin' };
  if (data.startsWith('@')) {
    const file = data.slice(1);
    try {
      return { text: await readFile(file, 'utf8'), origin: file };
    } catch (error) {
      throw new UsageError(`--data: cannot read ${file}: ${systemReason(error, file)}`);
    }
  }
  return { text: data, origin: '--data' };
}

export function parseJsonObject(text: string, origin: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${origin} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${origin} must be a JSON object, e.g. '{"first_name":"Ada"}'`);
  }
  if (nestsDeeperThan(value)) throw new UsageError(`${origin} ${TOO_DEEP}`);
  return value as JsonObject;
}

/** `key=value` sets a string; `key:=value` sets a JSON value (number, true, null, object…); dots nest. */
export function applySet(body: JsonObject, assignment: string): void {
  const typed = /^([^=:]+):=(.*)$/s.exec(assignment);
  const plain = /^([^=:]+)=(.*)$/s.exec(assignment);
  const match = typed ?? plain;
  if (!match?.[1]) throw new UsageError(`--set expects key=value or key:=json, got '${assignment}'`);
  const key = match[1].trim();
  let value: unknown = match[2] ?? '';
  if (typed) {
    try {
      value = JSON.parse(String(value));
    } catch {
      throw new UsageError(`--set ${key}:= needs a JSON value, got '${String(value)}'`);
    }
    if (nestsDeeperThan(value)) throw new UsageError(`--set ${key}:= ${TOO_DEEP}`);
  }
  const parts = key.split('.');
  const last = parts.pop() as string;
  let node = body;
  // Own properties only, read and written as data: `__proto__`, `constructor` or `toString` are names like any
  // other, sent as given (never the object's prototype, nor Object.prototype itself).
  for (const part of parts) {
    const inner = Object.hasOwn(node, part) ? node[part] : undefined;
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) node = inner as JsonObject;
    else {
      const child: JsonObject = {};
      setOwn(node, part, child);
      node = child;
    }
  }
  setOwn(node, last, value);
}

function setOwn(node: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

export async function readBody(flags: BodyFlags, io: IO): Promise<JsonObject> {
  if (flags.data === undefined && flags.set.length === 0) {
    throw new UsageError('nothing to send: give --data JSON|@file|- or --set key=value');
  }
  let body: JsonObject = {};
  if (flags.data !== undefined) {
    const { text, origin } = await dataText(flags.data, io);
    body = parseJsonObject(text, origin);
  }
  for (const assignment of flags.set) applySet(body, assignment);
  // Dotted --set keys nest too (a.b.c…).
  if (nestsDeeperThan(body)) throw new UsageError(`the body ${TOO_DEEP}`);
  return body;
}
