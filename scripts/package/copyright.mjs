// The copyright file of the Debian package (Debian's machine-readable format): clinic's licence, and the notices of
// what the single executable carries: the Node.js runtime, the npm packages bundled into it (from esbuild's
// metafiles) and the keyring binary's own third-party notices.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the
Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/** A text as the body of a field: every line indented by a space, empty lines as ` .`. */
const body = (text) =>
  text
    .replace(/\r\n?/g, '\n')
    .trimEnd()
    .split('\n')
    .map((line) => (line.trim() === '' ? ' .' : ` ${line.trimEnd()}`))
    .join('\n');

/** Node's LICENSE (its own and its bundled libraries'), where this Node's install keeps it. */
function nodeLicense() {
  const bin = dirname(process.execPath);
  for (const file of [join(bin, '..', 'LICENSE'), join(bin, 'LICENSE'), '/usr/share/doc/nodejs/LICENSE'])
    if (existsSync(file)) return readFileSync(file, 'utf8');
  return undefined;
}

/** The packages whose files esbuild put into the bundles, each with its package.json and licence text. */
function bundledPackages(root, metafiles) {
  const dirs = new Set();
  for (const metafile of metafiles)
    for (const input of Object.keys(metafile.inputs)) {
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) dirs.add(match[1]);
    }
  return [...dirs].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((name) =>
      /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name),
    );
    return {
      name: pkg.name,
      version: pkg.version,
      license: pkg.license ?? 'see its notice',
      notice: file && readFileSync(join(root, dir, file), 'utf8'),
    };
  });
}

export function copyrightFile({ root, metafiles, keyringNotices }) {
  const packages = bundledPackages(root, metafiles);
  const node = nodeLicense();
  const paragraphs = [
    [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      'Upstream-Name: clinic',
      'Comment: /usr/bin/clinic is a Node.js single executable application: the Node.js runtime that built it,',
      body(`with clinic and the npm packages it uses bundled inside. Their notices follow.`),
    ].join('\n'),
    ['Files: *', 'Copyright: The clinic developers', 'License: MIT'].join('\n'),
    [
      'Files: usr/bin/clinic',
      'Copyright: The clinic developers; the Node.js contributors; the authors of the packages below',
      `License: MIT and Node.js and others`,
      'Comment: Inside: Node.js ' +
        process.version +
        ' (licence "Node.js" below, with the libraries it bundles);',
      body(
        'these npm packages, each under its licence, whose notice follows under its name:\n' +
          packages.map((p) => `${p.name} ${p.version} (${p.license})`).join('\n') +
          '\nand the @napi-rs/keyring binary, whose third-party notices follow as "keyring-binary".',
      ),
    ].join('\n'),
    `License: MIT\n${body(MIT)}`,
    `License: Node.js\n${body(node ?? `Node.js ${process.version}: MIT; its LICENSE file lists the licences of the libraries it bundles.`)}`,
    ...packages.filter((p) => p.notice).map((p) => `License: ${p.name}\n${body(p.notice)}`),
    `License: keyring-binary\n${body(keyringNotices)}`,
  ];
  return `${paragraphs.join('\n\n')}\n`;
}
