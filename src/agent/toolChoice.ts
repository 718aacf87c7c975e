/**
 * Which tools an agent run offers: the Tools picker's choice, kept per workspace. The built-in tools and the MCP
 * servers' tools are on until the user turns one off; the tools other extensions register with VS Code
 * (`vscode.lm.tools`) are off until the user turns one on, as they come from code the user did not pick for
 * the agent. The choice is stored as the exceptions to those defaults, so a tool added later follows its default.
 */
import * as v from 'valibot';

/** Where a tool comes from, in the order the picker groups them. */
export const TOOL_SOURCES = ['builtin', 'mcp', 'vscode'] as const;
export type ToolSource = (typeof TOOL_SOURCES)[number];

/** A tool as the picker lists it. */
export interface ToolChoiceEntry {
  name: string;
  source: ToolSource;
  /** The first sentence of the tool's description, for the picker's second line. */
  description: string;
  enabled: boolean;
}

/** The user's exceptions to the defaults, by tool name. */
export interface ToolChoice {
  /** Tools turned on that are off by default (VS Code's registered tools). */
  on: string[];
  /** Tools turned off that are on by default (built-in and MCP tools). */
  off: string[];
}

/** A tool name as stored: what the picker can list (MCP `server.tool`, VS Code tools' own names). */
const toolName = v.pipe(v.string(), v.nonEmpty(), v.maxLength(256));
/** More than any workspace has; a stored value beyond it is cut rather than trusted. */
const MAX_NAMES = 500;
const names = v.pipe(
  v.array(v.unknown()),
  v.transform((list) => list.filter((n): n is string => v.is(toolName, n)).slice(0, MAX_NAMES)),
);
const storedChoice = v.object({ on: v.optional(names, []), off: v.optional(names, []) });

export const NO_CHOICE: ToolChoice = { on: [], off: [] };

/** The stored choice, or none when the value is missing or not a choice (a hand-edited state, an old build). */
export function readToolChoice(value: unknown): ToolChoice {
  const parsed = v.safeParse(storedChoice, value);
  return parsed.success ? { on: parsed.output.on, off: parsed.output.off } : NO_CHOICE;
}

/** True when a tool from `source` is offered unless the user says otherwise. */
export function onByDefault(source: ToolSource): boolean {
  return source !== 'vscode';
}

/** Whether the run offers the tool `name` from `source`. */
export function isToolEnabled(choice: ToolChoice, name: string, source: ToolSource): boolean {
  return onByDefault(source) ? !choice.off.includes(name) : choice.on.includes(name);
}

/** The choice after the user set `name` (from `source`) on or off; only departures from the default are kept. */
export function withToolEnabled(
  choice: ToolChoice,
  name: string,
  source: ToolSource,
  enabled: boolean,
): ToolChoice {
  const on = choice.on.filter((n) => n !== name);
  const off = choice.off.filter((n) => n !== name);
  if (enabled !== onByDefault(source)) (enabled ? on : off).push(name);
  return { on: on.sort(), off: off.sort() };
}

/** The first sentence of a description, at most `max` characters, on one line. */
export function shortDescription(description: string, max = 120): string {
  const line = description.replace(/\s+/g, ' ').trim();
  // A sentence ends before a capital or the end: "e.g. \"src/**\"" and "v1.2" do not end one.
  const sentence = /^.*?[.!?](?=\s+[A-Z(]|$)/.exec(line)?.[0] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/** The picker's rows: every tool with its state, grouped by source, then by name. */
export function toolChoiceEntries(
  tools: ReadonlyArray<{ name: string; source: ToolSource; description: string }>,
  choice: ToolChoice,
): ToolChoiceEntry[] {
  const order = (s: ToolSource): number => TOOL_SOURCES.indexOf(s);
  return tools
    .map((t) => ({
      name: t.name,
      source: t.source,
      description: shortDescription(t.description),
      enabled: isToolEnabled(choice, t.name, t.source),
    }))
    .sort(
      (a, b) =>
        order(a.source) - order(b.source) || (a.source === 'builtin' ? 0 : a.name.localeCompare(b.name)),
    );
}
