// Request bodies from --data and --set: JSON checks, nesting and typing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { applySet, parseJsonObject, readBody } from '../../../src/cli/body-input.js';
import { IO } from '../../../src/cli/io.js';
import { UsageError } from '../../../src/core/errors.js';

function ioWithStdin(text: string): IO {
  const stdin = new PassThrough();
  stdin.end(text);
  return new IO(
    { stdin, stdout: new PassThrough(), stderr: new PassThrough() },
    { colourAllowed: false, inputAllowed: false },
  );
}

describe('parseJsonObject', () => {
  it('accepts a JSON object', () => {
    expect(parseJsonObject('{"a":1}', '--data')).toEqual({ a: 1 });
  });

  it('rejects malformed JSON, naming the origin', () => {
    expect(() => parseJsonObject('{"a":', '--data')).toThrow(UsageError);
    expect(() => parseJsonObject('{"a":', '--data')).toThrow(/^--data is not valid JSON/);
  });

  it.each(['[1,2]', '"text"', '5', 'null'])('rejects non-object JSON %s', (text) => {
    expect(() => parseJsonObject(text, '--data')).toThrow(/--data must be a JSON object/);
  });
});

describe('applySet', () => {
  it('key=value sets a string', () => {
    const body = {};
    applySet(body, 'n=5');
    expect(body).toEqual({ n: '5' });
  });

  it('key:=json sets a typed value', () => {
    const body = {};
    applySet(body, 'n:=5');
    applySet(body, 'ok:=true');
    applySet(body, 'none:=null');
    applySet(body, 'tags:=["a","b"]');
    expect(body).toEqual({ n: 5, ok: true, none: null, tags: ['a', 'b'] });
  });

  it('dots nest', () => {
    const body: Record<string, unknown> = { a: { keep: 1 } };
    applySet(body, 'a.b=c');
    applySet(body, 'x.y.z:=1');
    expect(body).toEqual({ a: { keep: 1, b: 'c' }, x: { y: { z: 1 } } });
  });

  it('keeps = and := inside the value', () => {
    const body = {};
    applySet(body, 'url=http://x/?a=b');
    applySet(body, 'expr=a:=b');
    expect(body).toEqual({ url: 'http://x/?a=b', expr: 'a:=b' });
  });

  it('an empty value is an empty string', () => {
    const body = {};
    applySet(body, 'note=');
    expect(body).toEqual({ note: '' });
  });

  it('rejects an assignment without = and a bad JSON value', () => {
    expect(() => applySet({}, 'novalue')).toThrow(/--set expects key=value/);
    expect(() => applySet({}, '=x')).toThrow(UsageError);
    expect(() => applySet({}, 'n:=abc')).toThrow(/--set n:= needs a JSON value/);
  });
});

describe('readBody', () => {
  it('needs --data or --set', async () => {
    await expect(readBody({ set: [] }, ioWithStdin(''))).rejects.toThrow(/nothing to send/);
  });

  it('merges --set over --data', async () => {
    const body = await readBody({ data: '{"a":1,"b":{"c":2}}', set: ['b.d=x', 'a:=3'] }, ioWithStdin(''));
    expect(body).toEqual({ a: 3, b: { c: 2, d: 'x' } });
  });

  it('reads --data - from stdin', async () => {
    expect(await readBody({ data: '-', set: [] }, ioWithStdin('{"from":"stdin"}'))).toEqual({
      from: 'stdin',
    });
  });

  it('rejects malformed stdin naming stdin', async () => {
    await expect(readBody({ data: '-', set: [] }, ioWithStdin('nope'))).rejects.toThrow(
      /^stdin is not valid JSON/,
    );
  });

  it('reads --data @file and reports a missing file as a usage error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clinic-body-'));
    try {
      const file = join(dir, 'body.json');
      await writeFile(file, '{"first_name":"Ada"}');
      expect(await readBody({ data: `@${file}`, set: [] }, ioWithStdin(''))).toEqual({ first_name: 'Ada' });
      await expect(
        readBody({ data: `@${join(dir, 'missing.json')}`, set: [] }, ioWithStdin('')),
      ).rejects.toThrow(/cannot read .*missing\.json: there is no such file or folder$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
