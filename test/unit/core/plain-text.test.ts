// The start-up path reads text without regular expressions (V8 compiles each on its first runs, which every
// one-shot command paid). Each rewrite is held here to the expression it replaced, over any text fast-check makes
// of the characters that matter to it: same answer, same error.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flagOf, keyOf } from '../../../src/cli/options.js';
import { parseId } from '../../../src/cli/parse-args.js';
import { helpParagraphs } from '../../../src/cli/program.js';
import { declaredFieldsAt } from '../../../src/core/api/declared-fields.js';
import { checkValue } from '../../../src/core/config/keys.js';
import { bearerToken } from '../../../src/core/http/client.js';
import { apiBase, pathProblem } from '../../../src/core/http/request-url.js';
import { isDigits, trimEnd } from '../../../src/core/plain-text.js';
import { isLoopbackHost } from '../../../src/core/secure-url.js';
import { BIN } from '../../helpers/cli.js';

const RUNS = { numRuns: 2000 };
/** Strings of the given characters (and a few others), up to 24 long. */
const textOf = (chars: string) =>
  fc
    .array(fc.constantFrom(...[...chars, 'x', 'Z', ' ', '\u00e9']), { maxLength: 24 })
    .map((list) => list.join(''));

/** What a function returns or the message it throws, to compare two of them. */
function outcome<T>(run: () => T): T | string {
  try {
    return run();
  } catch (error) {
    return `throws: ${(error as Error).message}`;
  }
}

describe('as the regular expressions they replace', () => {
  it('keyOf and flagOf read the first long flag, camel-cased', () => {
    const oldKeyOf = (flags: string) => {
      const long = /--([a-z0-9-]+)/i.exec(flags)?.[1];
      if (!long) throw new Error(`option '${flags}' has no long flag`);
      const name = long.startsWith('no-') ? long.slice(3) : long;
      return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    };
    const oldFlagOf = (flags: string) => /--[a-z0-9-]+/i.exec(flags)?.[0] ?? flags;
    fc.assert(
      fc.property(textOf('-nao09AZ,<>[] '), (flags) => {
        expect(outcome(() => keyOf(flags))).toEqual(outcome(() => oldKeyOf(flags)));
        expect(flagOf({ flags })).toBe(oldFlagOf(flags));
      }),
      RUNS,
    );
    expect(keyOf('-O, --output-file <file>')).toBe('outputFile');
    expect(keyOf('--no-input')).toBe('input');
  });

  it('helpParagraphs joins the lines of each paragraph', () => {
    const old = (text: string) =>
      text
        .split(/\n{2,}/)
        .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
        .join('\n\n');
    fc.assert(
      fc.property(textOf('a\n\n\n \t\u2028\u00a0'), (text) => {
        expect(helpParagraphs(text)).toBe(old(text));
      }),
      RUNS,
    );
  });

  it('trimEnd and the API base drop trailing slashes', () => {
    fc.assert(
      fc.property(textOf('//a'), (text) => {
        expect(trimEnd(text, '/')).toBe(text.replace(/\/+$/, ''));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(textOf('/a'), (path) => {
        const url = `http://h${path.replaceAll(' ', '').replaceAll('\u00e9', '')}`;
        expect(apiBase(url).prefix).toBe(new URL(url).pathname.replace(/\/+$/, ''));
      }),
      RUNS,
    );
  });

  it('parseId and a positive id setting take only a whole number without leading zero', () => {
    const oldId = (value: string) => {
      if (!/^[1-9]\d*$/.test(value.trim()) || !Number.isSafeInteger(Number(value)))
        throw new Error(`ID must be a positive whole number, got '${value}'`);
      return Number(value);
    };
    fc.assert(
      fc.property(textOf('0123456789 -+.e'), (value) => {
        expect(outcome(() => parseId(value))).toEqual(outcome(() => oldId(value)));
        const taken = /^[1-9]\d*$/.test(value);
        expect(outcome(() => checkValue('tenant', value))).toEqual(
          taken
            ? value
            : `throws: tenant must be a positive whole number (a tenant's id), got '${value}': ` +
                `\`clinic tenants use ${/^[a-z0-9][a-z0-9-]{0,62}$/i.test(value) ? value : 'SLUG'}\` saves a ` +
                "tenant by its slug, and `clinic tenants list` shows each one's id",
        );
      }),
      RUNS,
    );
    expect(isDigits('')).toBe(false);
  });

  it('isLoopbackHost knows 127.x.y.z', () => {
    fc.assert(
      fc.property(textOf('127.0359'), (host) => {
        const old = ['localhost', '[::1]', '::1'].includes(host) || /^127(\.\d{1,3}){3}$/.test(host);
        expect(isLoopbackHost(host)).toBe(old);
      }),
      RUNS,
    );
  });

  it('bearerToken strips a Bearer scheme', () => {
    fc.assert(
      fc.property(textOf('BbEeAaRr \t\n\u00a0'), (value) => {
        expect(bearerToken(value)).toBe(value.replace(/^Bearer\s+/i, ''));
      }),
      RUNS,
    );
  });

  it('pathProblem finds the same problem in any path', () => {
    const old = (path: string): string | undefined => {
      // eslint-disable-next-line no-control-regex -- the expression replaced
      if (/[\u0000-\u001f\u007f]/.test(path)) return 'a control character (tab, line break…)';
      if (path.includes('\\')) return 'a backslash';
      if (/%(2f|5c)/i.test(path)) return 'an encoded slash or backslash';
      if (/%([01][0-9a-f]|7f)/i.test(path)) return 'an encoded control character';
      if (path.includes('//')) return 'an empty segment (//)';
      if (path.includes(';')) return "a ';'";
      if (path.includes('?')) return 'a query (give it apart from the path)';
      if (path.includes('#')) return "a fragment ('#')";
      return undefined;
    };
    fc.assert(
      fc.property(textOf('%%2fF5cC017aA/\\;?#\u0001\u007f\u0080'), (path) => {
        expect(pathProblem(path)).toBe(old(path));
      }),
      RUNS,
    );
  });

  it('declaredFieldsAt knows the paths it knew', () => {
    const PATTERNS: [RegExp, string][] = [
      [/^\/v1\/data-erasure-requests(\/\d+(\/(resend|cancel|retry))?)?$/, '/v1/data-erasure-requests'],
      [/^\/v1\/customers(\/\d+)?$/, '/v1/customers'],
      [/^\/v1\/form-templates\/\d+$/, '/v1/form-templates/1'],
      [/^\/v1\/leads\/\d+\/notes$/, '/v1/leads/1/notes'],
      [/^\/v1\/announcements\/\d+$/, '/v1/announcements/1'],
      [/^\/v1\/account$/, '/v1/account'],
      [/^\/v1\/conversations\/\d+\/messages\/voice$/, '/v1/conversations/1/messages/voice'],
      [/^\/v1\/conversations\/\d+\/messages(\/\d+)?$/, '/v1/conversations/1/messages'],
      [/^\/v1\/account-transaction-types$/, '/v1/account-transaction-types'],
    ];
    const old = (path: string) => {
      const found = PATTERNS.find(([pattern]) => pattern.test(path));
      return found && declaredFieldsAt(found[1]);
    };
    const segment = fc.constantFrom(
      'v1',
      'customers',
      'data-erasure-requests',
      'resend',
      'cancel',
      'retry',
      'form-templates',
      'leads',
      'notes',
      'announcements',
      'account',
      'conversations',
      'messages',
      'voice',
      'account-transaction-types',
      '1',
      '42',
      '',
      'x1',
    );
    const path = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(path, (p) => {
        expect(declaredFieldsAt(p)).toEqual(old(p));
      }),
      RUNS,
    );
    expect(declaredFieldsAt('/v1/customers/7')).toContain('first_name');
  });

  it("bin's cache name takes the same command words", () => {
    const { commandKey } = createRequire(import.meta.url)(BIN) as { commandKey(args: string[]): string };
    const old = (args: string[]) => {
      const words: string[] = [];
      for (const arg of args) {
        if (arg.startsWith('-')) continue;
        if (!/^[a-z][a-z-]{0,31}$/.test(arg) || words.push(arg) === 3) break;
      }
      return words.join('-') || 'other';
    };
    const arg = fc.oneof(
      textOf('abz-'),
      fc.constantFrom('customers', 'get', '-o', '--profile', 'a'.repeat(32), 'a'.repeat(33), '-'),
    );
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 6 }), (args) => {
        expect(commandKey(args)).toBe(old(args));
      }),
      RUNS,
    );
  });
});
