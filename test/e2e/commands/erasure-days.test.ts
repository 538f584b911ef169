// `erasure list --created-from DAY --created-to DAY` against the sandbox: the whole local day, however TZ puts it.
import { describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({ erasureStepSeconds: 0 }));

interface Erasure {
  id: number;
  created_at: string;
}

/** The calendar day of an instant in a time zone, by Intl (not by the code under test). */
const dayIn = (zone: string, iso: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));

async function list(args: string[], zone: string): Promise<Erasure[]> {
  const result = await world.clinic(['erasure', 'list', '--all', ...args, '-o', 'json'], {
    env: { TZ: zone },
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Erasure[];
}

describe.each(['Europe/Berlin', 'America/Los_Angeles', 'Asia/Kolkata'])('in %s', (zone) => {
  it('a day given to both bounds lists exactly the requests created on that local day', async () => {
    const all = await list([], zone);
    const days = new Map<string, number[]>();
    for (const request of all) {
      const day = dayIn(zone, request.created_at);
      days.set(day, [...(days.get(day) ?? []), request.id]);
    }
    // The busiest local day, so that the check is about many requests.
    const [day, ids] = [...days].sort((a, b) => b[1].length - a[1].length)[0]!;
    world.newRequests();
    const listed = await list(['--created-from', day, '--created-to', day], zone);
    expect(listed.map((r) => r.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    // Sent as full UTC date-times, not as the bare day (which servers read in different ways).
    const query = new URLSearchParams(world.newRequests()[0]?.query);
    expect(query.get('created_at_from')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
    expect(query.get('created_at_to')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:59\.999999Z$/);
  });
});
