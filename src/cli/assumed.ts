// Help's word where a command relies on what the API document does not show: the same request can always be sent by
// hand, as a server that differs expects it, with `clinic api` (which prints the answer as it comes, PDFs included).

/** The sentence ending such a help text: `example` is the request as `clinic api` sends it. */
export const otherwiseWithApi = (example: string): string =>
  ` If your server differs, send the request it expects with clinic api, e.g. \`${example}\` (see clinic api --help).`;
