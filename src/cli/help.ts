/** `--help` or `-h`: no command takes either as a flag's value. */
export const isHelpFlag = (arg: string | undefined): boolean => arg === '--help' || arg === '-h';

/**
 * A command's `--help` (or `-h`, anywhere among its flags): its usage on stdout, before it checks or
 * starts anything. Returns whether it printed (the command then exits 0).
 */
export function printHelpIfAsked(argv: readonly string[], usage: string): boolean {
  if (!argv.some(isHelpFlag)) return false;
  process.stdout.write(`${usage.trimEnd()}\n`);
  return true;
}
