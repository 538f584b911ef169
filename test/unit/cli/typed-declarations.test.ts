// Types that flow from declarations: option values typed by their builders, a run held to its command's declared
// options, settings typed by key. Checked by `tsc --noEmit` (which covers test/): each `@ts-expect-error` fails the
// check if what it marks starts to compile, each `expectTypeOf` if an inferred type drifts.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type CommandInput, defineCommand, type OptionsOf, verb } from '../../../src/cli/command.js';
import { type GlobalOptions, parseGlobals } from '../../../src/cli/globals.js';
import { LIST_OPTIONS } from '../../../src/cli/list-flags.js';
import { option } from '../../../src/cli/options.js';
import type { CredentialStoreKind, OutputFormat } from '../../../src/core/config/keys.js';
import { Settings } from '../../../src/core/config/settings.js';

const OPTIONS = [
  option.int('--per-page <n>', 'records per page', { min: 1, max: 100 }),
  option.choice('--status <status>', 'status', ['open', 'closed'] as const),
  option.flag('--no-input', 'never prompt'),
  option.ids('--conversation <id>', 'a conversation'),
] as const;

type Options = OptionsOf<typeof OPTIONS>;

/** A declaration around `run`, as an index file writes it. */
const declared = <R>(run: R) => ({ name: 'x', summary: 'x', examples: [], load: async () => run });

describe('option declarations', () => {
  it('infer each key and type from the builder', () => {
    expectTypeOf<Options>().toEqualTypeOf<{
      perPage: number | undefined;
      status: 'open' | 'closed' | undefined;
      input: boolean | undefined;
      conversation: number[] | undefined;
    }>();
    expectTypeOf<OptionsOf<typeof LIST_OPTIONS>['perPage']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error -- a number option is no string
    const text: string | undefined = ({} as Options).perPage;
    expect(text).toBeUndefined();
  });

  it("hold a command's run to the options its declaration lists", () => {
    const run = verb(
      ({ options }: CommandInput<typeof OPTIONS>) => options,
      async () => {},
    );
    const fine = defineCommand({ ...declared(run), options: OPTIONS });
    // A run may read fewer options than declared.
    const fewer = verb(
      ({ options }: CommandInput<readonly [(typeof OPTIONS)[0]]>) => options.perPage,
      async () => {},
    );
    defineCommand({ ...declared(fewer), options: OPTIONS });
    // @ts-expect-error -- the run reads --status, which the declaration does not list
    defineCommand({ ...declared(run), options: [OPTIONS[0]] as const });
    const asText = verb(
      ({ options }: CommandInput<readonly [ReturnType<typeof option.text<'--per-page <n>'>>]>) => options,
      async () => {},
    );
    // @ts-expect-error -- the run takes --per-page as text, the declaration parses a number
    defineCommand({ ...declared(asText), options: [OPTIONS[0]] as const });
    expect(fine.options).toBe(OPTIONS);
  });
});

describe('settings', () => {
  const settings = new Settings({ name: 'p', source: 'flag' }, { profiles: {} }, {});

  it('are typed by key', () => {
    expectTypeOf(settings.get('realtime.port')).toEqualTypeOf<number | undefined>();
    expectTypeOf(settings.get('realtime.tls')).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(settings.get('output')).toEqualTypeOf<OutputFormat | undefined>();
    expectTypeOf(settings.get('credential_store')).toEqualTypeOf<CredentialStoreKind | undefined>();
    expectTypeOf(settings.get('base_url')).toEqualTypeOf<string | undefined>();
    // @ts-expect-error -- not a setting
    expect(() => settings.get('base-url')).toThrow(/unknown config key/);
  });
});

describe('global options', () => {
  it('are typed from their declarations', () => {
    expectTypeOf(parseGlobals).returns.toEqualTypeOf<GlobalOptions>();
    expectTypeOf<GlobalOptions['output']>().toEqualTypeOf<OutputFormat | undefined>();
    expectTypeOf<GlobalOptions['maxRetries']>().toEqualTypeOf<number>();
  });
});
