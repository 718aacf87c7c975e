// Command-line flags of the runners, the bench and its child processes.

/** The value of `--name=value` in `argv` (default: this process's), or undefined when it is not given. */
export function flag(name: string, argv: readonly string[] = process.argv): string | undefined {
  const prefix = `--${name}=`;
  return argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}
