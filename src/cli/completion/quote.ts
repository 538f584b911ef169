// Quoting for the POSIX shells' scripts (bash, zsh): a single-quoted word, its quotes closed and escaped.
export const posixQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
