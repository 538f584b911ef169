// The floor of a real command's start-up: what Node alone costs to do what `clinic customers get 1 -o json` does,
// written by hand in a few lines (read the profile and the stored token, one GET with node:http, the record
// printed as indented JSON). No checks, no errors handled: only the cost of the parts every such client needs.
'use strict';
const { readFileSync } = require('node:fs');
const { request } = require('node:http');
const { join } = require('node:path');

const dir = join(process.env.HOME, '.config', 'clinic');
const profile = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default;
const token = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).default.access_token;
const headers = { authorization: `Bearer ${token}`, 'x-tenant': profile.tenant, accept: 'application/json' };
request(`${profile.base_url}/v1/customers/1`, { headers }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (body += chunk));
  res.on('end', () => process.stdout.write(`${JSON.stringify(JSON.parse(body).data, null, 2)}\n`));
}).end();
