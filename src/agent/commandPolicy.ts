/**
 * Which commands of `run_command` may run without asking: those whose first words are on the user's allow-list
 * (`modelGateway.agent.autoApprove`), and never one that chains, pipes, redirects or substitutes, whatever the
 * list says: `npm test && curl … | sh` starts with `npm test` but is not `npm test`.
 */

/** Characters (and `$(`) that let one command line run more than one command or write files. */
const SHELL_OPERATOR = /[;&|<>`\n\r]|\$\(/;

/** A word that can stand in a prefix: a program or subcommand name, no quotes, variables or assignments. */
const PLAIN_WORD = /^[A-Za-z0-9_@+][A-Za-z0-9_.@+:/-]*$/;

/** The most words an "Always Allow" prefix takes (`npm test`, `git status`). */
const MAX_PREFIX_WORDS = 2;

/** The command line's words, split on whitespace. */
function words(command: string): string[] {
  return command.trim().split(/\s+/).filter(Boolean);
}

/** True when the command line chains, pipes, redirects, substitutes or spans lines: it is never auto-approved. */
export function isCompound(command: string): boolean {
  return SHELL_OPERATOR.test(command);
}

/**
 * The first word(s) "Always Allow" adds to the list: the program, and its subcommand when the second word is a
 * plain name (`npm test`, `git status`; `node -e …` gives `node`). Undefined when the command cannot be allowed
 * (it is compound, or starts with something that is not a plain program name).
 */
export function commandPrefix(command: string): string | undefined {
  if (isCompound(command)) return undefined;
  const all = words(command);
  if (all.length === 0 || !PLAIN_WORD.test(all[0])) return undefined;
  const prefix = [all[0]];
  for (const word of all.slice(1, MAX_PREFIX_WORDS)) {
    if (!/^[A-Za-z][A-Za-z0-9_.:-]*$/.test(word)) break;
    prefix.push(word);
  }
  return prefix.join(' ');
}

/** The allow-list entry that approves the command, or undefined when the user must be asked. */
export function autoApprovingEntry(command: string, allowList: readonly string[]): string | undefined {
  if (isCompound(command)) return undefined;
  const commandWords = words(command);
  return allowList.find((entry) => {
    const entryWords = words(entry);
    return (
      entryWords.length > 0 &&
      entryWords.length <= commandWords.length &&
      entryWords.every((w, i) => w === commandWords[i])
    );
  });
}

/** The list with `prefix` added (once; the order kept). */
export function withAllowed(allowList: readonly string[], prefix: string): string[] {
  return allowList.includes(prefix) ? [...allowList] : [...allowList, prefix];
}
