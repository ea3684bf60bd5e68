/** The arguments as one would type them again in a POSIX shell: any with a space or a shell character in single quotes. */
export function shellWords(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w./:=,@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
