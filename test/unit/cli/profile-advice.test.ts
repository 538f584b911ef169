// Advice that names a command to run names the profile it is for when --profile chose it: run as written, it changes
// that profile, not the one the config file selects (the way `run: clinic --profile NAME login` already did).
import { describe, expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';

const cli = useInProcess();
/** No base_url, tenant or token from the environment: the profile's own settings only. */
const bare = { CLINIC_BASE_URL: undefined, CLINIC_TENANT: undefined };

describe('advice for a profile chosen with --profile', () => {
  it('no base_url: set it on that profile (a profile that does not exist yet is said to be new)', async () => {
    const result = await cli.run(['--profile', 'staging', 'customers', 'list'], { env: bare });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("there is no profile 'staging'");
    expect(result.stderr).toContain("make it with 'clinic --profile staging config set base_url URL'");
  });

  it('no client_id for a sign-in: set it on that profile', async () => {
    const result = await cli.run(
      ['--profile', 'staging', '--base-url', 'https://api.example.com/api', 'login', '--no-browser'],
      { env: { ...bare, CLINIC_TOKEN: undefined, CLINIC_CREDENTIAL_STORE: 'file' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("run 'clinic --profile staging config set client_id ID'");
  });

  it('no tenant: pick one for that profile', async () => {
    const result = await cli.run(['--profile', 'staging', 'customers', 'list'], {
      env: { CLINIC_TENANT: undefined },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("run 'clinic --profile staging tenants use ID'");
  });

  it('no realtime key for chat tail: set it on that profile', async () => {
    const result = await cli.run(['--profile', 'staging', 'chat', 'tail']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("run 'clinic --profile staging config set realtime.key KEY'");
  });

  it('the profile the config file selects needs no flag', async () => {
    const result = await cli.run(['customers', 'list'], { env: { CLINIC_TENANT: undefined } });
    expect(result.stderr).toContain("run 'clinic tenants use ID'");
  });
});
